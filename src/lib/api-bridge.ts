import type { APIRoute } from 'astro';
import { createApi, type Api } from '../../functions/app.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { ApiError } from '../../functions/http/api-error.ts';
import { answeredId, requestIdsFor } from '../../functions/http/request-id.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { projectSources } from './catalog.ts';
import { searchIndexJson } from './search-index.ts';

let api: Promise<Api> | undefined;

/**
 * The router under `astro dev`: a thin bridge from Astro's Request to the router in functions/.
 * Production does not come through here (functions/server dispatches to the router itself).
 * Astro's clientAddress believes any X-Forwarded-For, so in dev it serves only as a quota key.
 */
export const routerBridge: APIRoute = async ({ request, clientAddress }) => {
  // The same index the build writes, so search under `astro dev` covers the docs too.
  api ??= Promise.all([projectSources(), searchIndexJson()]).then(([projects, index]) => createApi(loadConfig(), projects, index));
  const { router, services } = await api;
  const url = new URL(request.url);
  const headers = Object.fromEntries(request.headers);
  const response = await router.handle({
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers,
    clientIp: clientAddress,
    requestId: answeredId(requestIdsFor(headers['x-request-id'])),
    async readBody(maxBytes) {
      const body = Buffer.from(await request.arrayBuffer());
      if (body.length > maxBytes) throw new ApiError('payload_too_large', `The body is larger than ${maxBytes} bytes.`);
      return body;
    },
  });
  const body = typeof response.body === 'string' || response.body === null ? response.body : new Uint8Array(response.body);
  return new Response(body, {
    status: response.status,
    headers: { ...securityHeaders(services.config.siteUrl), ...response.headers },
  });
};
