import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { ApiError } from '../../functions/http/api-error.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import type { ApiRequest, ApiResponse } from '../../functions/http/types.ts';
import { fetchHandlerOver } from '../../functions/hosts/fetch/fetch-handler.ts';
import { toApiRequest } from '../../functions/hosts/fetch/web-request.ts';

const config = { ...loadConfig({}), accessLog: false };

/** A handle that answers what `answer` makes of the request it was given. */
function over(answer: (request: ApiRequest) => Promise<ApiResponse>, takeDueWork?: () => Promise<void> | undefined) {
  return fetchHandlerOver({ config, handle: answer, takeDueWork });
}

const OK: ApiResponse = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'fine' };

describe('the fetch handler', () => {
  it('hands the service the path, query, headers, client address and the caller’s request id', async () => {
    let seen: ApiRequest | undefined;
    const handler = over(async (request) => ((seen = request), OK));
    const response = await handler(
      new Request('https://ada.example/api/v1/projects?tag=rust', { headers: { 'x-request-id': 'caller-id-0001' } }),
      { clientIp: '192.0.2.7' },
    );
    expect(seen).toMatchObject({
      method: 'GET',
      path: '/api/v1/projects',
      clientIp: '192.0.2.7',
      requestId: 'caller-id-0001',
    });
    expect(seen?.query.get('tag')).toBe('rust');
    expect(response.headers.get('x-request-id')).toBe('caller-id-0001');
    for (const [name, value] of Object.entries(securityHeaders(config)))
      expect(response.headers.get(name), name).toBe(value);
    expect(await response.text()).toBe('fine');
  });

  it('answers a crash with the documented 500 shape and nothing of the failure', async () => {
    const response = await over(() => Promise.reject(new Error('secret detail')))(
      new Request('https://ada.example/api/v1/projects'),
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side.',
      requestId: response.headers.get('x-request-id'),
    });
  });

  it('reads a body with a bound: a declared length over it and a streamed body past it are both refused', async () => {
    const readBody = (body: BodyInit) => {
      const request = new Request('https://ada.example/api/v1/contact', {
        method: 'POST',
        body,
        duplex: 'half',
      } as RequestInit);
      return toApiRequest(request, new URL(request.url), '192.0.2.7', 'id').readBody(8);
    };
    expect((await readBody('12345678')).toString()).toBe('12345678');
    await expect(readBody('123456789')).rejects.toMatchObject({ code: 'payload_too_large' });
    await expect(readBody(new Blob(['12345', '67890']).stream())).rejects.toBeInstanceOf(ApiError);
  });

  it('bounds a body by the bytes that arrive, whatever its Content-Length says, reading no further', async () => {
    /** A 1 MiB body in 4-byte pieces, made as they are read; `pulled` counts them. */
    let pulled = 0;
    const lazyMebibyte = () => {
      pulled = 0;
      return new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulled += 1;
            if (pulled * 4 > 1024 * 1024) controller.close();
            else controller.enqueue(new Uint8Array(4));
          },
        },
        { highWaterMark: 0 },
      );
    };
    const readBody = (contentLength: string) => {
      const request = new Request('https://ada.example/api/v1/contact', {
        method: 'POST',
        headers: { 'content-length': contentLength },
        body: lazyMebibyte(),
        duplex: 'half',
      } as RequestInit);
      return toApiRequest(request, new URL(request.url), '192.0.2.7', 'id').readBody(8);
    };
    // Understated: refused once the bytes pass the bound, three pieces in.
    await expect(readBody('4')).rejects.toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(pulled).toBeLessThanOrEqual(4);
    // Overstated past the bound: refused before a byte is read.
    await expect(readBody(String(1024 * 1024))).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(pulled).toBe(0);
  });

  it('sends no body for HEAD, 204 and 304', async () => {
    const head = await over(async () => OK)(new Request('https://ada.example/api/v1/projects', { method: 'HEAD' }));
    expect(await head.text()).toBe('');
    const notModified = await over(async () => ({ ...OK, status: 304 }))(
      new Request('https://ada.example/api/v1/projects'),
    );
    expect([notModified.status, await notModified.text()]).toEqual([304, '']);
  });

  it('starts the work a request left due only when the host offers waitUntil', async () => {
    let taken = 0;
    const handler = over(
      async () => OK,
      () => ((taken += 1), Promise.resolve()),
    );
    await handler(new Request('https://ada.example/api/v1/contact'));
    expect(taken).toBe(0);
    const kept: Promise<unknown>[] = [];
    await handler(new Request('https://ada.example/api/v1/contact'), { waitUntil: (promise) => kept.push(promise) });
    expect([taken, kept.length]).toEqual([1, 1]);
  });
});
