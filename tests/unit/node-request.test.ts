import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { splitTarget, toApiRequest } from '../../functions/hosts/node/node-request.ts';
import type { ApiError } from '../../functions/http/api-error.ts';
import { RequestAborted } from '../../functions/http/request-aborted.ts';

const incoming = (url: string) => ({ method: 'GET', url, headers: {} }) as unknown as IncomingMessage;

/** A node request as the listener hands it to the service. */
function requestFor(url: string) {
  const { path, search } = splitTarget(url);
  return toApiRequest(incoming(url), path, search, '127.0.0.1', 'id-1');
}

describe('a node request as the service sees it', () => {
  it('gives the query as received and parsed, and the path without it', () => {
    const request = requestFor('/api/v1/projects?limit=2&cursor=a%2Fb');
    expect(request.path).toBe('/api/v1/projects');
    expect(request.search).toBe('limit=2&cursor=a%2Fb');
    expect([...request.query]).toEqual([
      ['limit', '2'],
      ['cursor', 'a/b'],
    ]);
    expect(request.query).toBe(request.query);
  });

  it('gives a request without a query an empty one that cannot be changed, shared by all of them', () => {
    for (const url of ['/api/v1/projects', '/api/v1/projects?']) {
      const request = requestFor(url);
      expect(request.search).toBe('');
      expect(request.query.size).toBe(0);
      expect(() => request.query.append('sandbox', 'true')).toThrow(TypeError);
      expect(() => request.query.set('sandbox', 'true')).toThrow(TypeError);
      expect(() => request.query.delete('sandbox')).toThrow(TypeError);
      expect(request.query.size).toBe(0);
      expect(request.query).toBe(requestFor('/other').query);
    }
  });
});

describe("a node request's body", () => {
  /** A server answering each POST with what readBody(limit) gave: the body, or the error's name. */
  async function withServer(limit: number, run: (port: number, outcomes: string[]) => Promise<void>) {
    const outcomes: string[] = [];
    const server = createServer((req, res) => {
      toApiRequest(req, '/', '', '127.0.0.1', 'id')
        .readBody(limit)
        .then(
          (body) => outcomes.push(`body:${body.toString()}`),
          (error: unknown) =>
            outcomes.push(
              error instanceof RequestAborted ? `aborted:${error.reason}` : `error:${(error as ApiError).code}`,
            ),
        )
        .finally(() => res.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run((server.address() as AddressInfo).port, outcomes);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  /** Sends a POST in the pieces given (chunked), with a pause after each; unfinished, the client goes away instead of ending it. */
  function post(port: number, pieces: string[], finish = true): Promise<void> {
    return new Promise((resolve) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/' }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
      const next = (index: number) => {
        if (index === pieces.length) {
          if (finish) req.end();
          else setTimeout(() => (req.destroy(), resolve()), 50);
          return;
        }
        req.write(pieces[index], () => setTimeout(() => next(index + 1), 10));
      };
      next(0);
    });
  }

  it('arrives whole, in one piece or several, and empty as empty', async () => {
    await withServer(64, async (port, outcomes) => {
      await post(port, ['{"one":1}']);
      await post(port, ['{"a":', '1,', '"b":2}']);
      await post(port, []);
      expect(outcomes).toEqual(['body:{"one":1}', 'body:{"a":1,"b":2}', 'body:']);
    });
  });

  it('is refused past its limit, and ends as aborted when the client goes away', async () => {
    await withServer(8, async (port, outcomes) => {
      await post(port, ['12345', '67890']);
      await post(port, ['123'], false);
      await expect.poll(() => outcomes, { timeout: 10_000 }).toEqual(['error:payload_too_large', 'aborted:client']);
    });
  });
});
