import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { splitTarget, toApiRequest } from '../../functions/hosts/node/node-request.ts';

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
