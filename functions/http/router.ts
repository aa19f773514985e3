import { ApiError, errorResponse, problemResponse } from './api-error.ts';
import { CORS_HEADERS, preflightHeaders } from './cors.ts';
import { RoutePattern } from './route-pattern.ts';
import { rateLimitHeaders, type RateLimiter } from '../limits/rate-limiter.ts';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from './types.ts';

export type RouteHandler = (request: ApiRequest, params: Record<string, string>) => ApiResponse | Promise<ApiResponse>;

/** One operation of the API: what the OpenAPI description and the docs are generated from. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  summary: string;
  /** The per-IP quota this operation counts against, if any. */
  quota?: RateLimiter;
  handler: RouteHandler;
}

/** Versions X-API-Version may name (SPEC.md section 9). */
export const API_VERSIONS = ['v1'] as const;

const SAFE_INSTANCE = /^[A-Za-z0-9/._~-]{1,200}$/;

export type ErrorLogger = (requestId: string, error: unknown) => void;

/**
 * Dispatches a request to its route and applies what every API response shares: the request id,
 * CORS, 404 for unknown paths, 405 with Allow, the X-API-Version check, the quota and the
 * Error shape. A handler throws ApiError for expected failures; anything else is a 500 whose
 * details go only to the log.
 */
export class Router {
  private readonly routes: { route: Route; pattern: RoutePattern }[];
  private readonly logError: ErrorLogger;

  constructor(routes: readonly Route[], logError: ErrorLogger) {
    this.routes = routes.map((route) => ({ route, pattern: new RoutePattern(route.path) }));
    this.logError = logError;
  }

  async handle(request: ApiRequest): Promise<ApiResponse> {
    let response: ApiResponse;
    try {
      response = await this.dispatch(request);
    } catch (error) {
      response = this.renderError(request, error, {});
    }
    response.headers['x-request-id'] = request.requestId;
    if (request.method === 'HEAD') response.body = null;
    return response;
  }

  private async dispatch(request: ApiRequest): Promise<ApiResponse> {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    let match: { route: Route; params: Record<string, string> } | undefined;
    let pathExists = false;
    for (const { route, pattern } of this.routes) {
      const params = pattern.match(request.path);
      if (params === null) continue;
      pathExists = true;
      if (route.method === method) {
        match = { route, params };
        break;
      }
    }
    if (!pathExists) {
      throw new ApiError('not_found', 'No API operation lives at this path.', { hint: 'See /openapi.json for every operation.' });
    }
    if (match === undefined || request.method === 'OPTIONS') {
      const allow = this.allowedMethods(request.path);
      if (request.method === 'OPTIONS') return { status: 204, headers: preflightHeaders(allow), body: null };
      throw new ApiError('method_not_allowed', `${request.method} is not allowed here.`, {
        hint: `Use ${allow}.`,
        headers: { allow },
      });
    }
    const { route, params } = match;
    const quotaHeaders: HeaderMap = {};
    try {
      if (route.quota !== undefined) {
        const decision = route.quota.consume(request.clientIp);
        Object.assign(quotaHeaders, rateLimitHeaders(decision));
        if (!decision.allowed) {
          throw new ApiError('rate_limited', 'Too many requests from this client.', {
            hint: `The quota is ${decision.limit} requests per ${route.quota.quota.seconds} seconds; retry after ${decision.resetSeconds} seconds.`,
          });
        }
      }
      checkApiVersion(request);
      const response = await route.handler(request, params);
      Object.assign(response.headers, CORS_HEADERS, quotaHeaders);
      return response;
    } catch (error) {
      return this.renderError(request, error, quotaHeaders, route.path);
    }
  }

  /** The Allow header value for a path (RFC 9110 section 10.2.1): HEAD with GET, and OPTIONS. */
  private allowedMethods(path: string): string {
    const allowed = new Set<string>();
    for (const { route, pattern } of this.routes) {
      if (pattern.match(path) === null) continue;
      allowed.add(route.method);
      if (route.method === 'GET') allowed.add('HEAD');
    }
    allowed.add('OPTIONS');
    return [...allowed].join(', ');
  }

  private renderError(request: ApiRequest, error: unknown, extraHeaders: HeaderMap, template = request.path): ApiResponse {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else {
      this.logError(request.requestId, error);
      apiError = new ApiError('internal_error', 'Something went wrong on our side.', {
        hint: 'Retry later; if it persists, report the requestId.',
      });
    }
    // The problem's instance repeats the path only when it is short and plain; odd input is not echoed.
    const instance = SAFE_INSTANCE.test(request.path) ? request.path : template;
    const response = apiError.problem
      ? problemResponse(apiError, request.requestId, instance)
      : errorResponse(apiError, request.requestId);
    Object.assign(response.headers, CORS_HEADERS, extraHeaders);
    return response;
  }
}


function checkApiVersion(request: ApiRequest): void {
  const version = headerValue(request, 'x-api-version');
  if (version !== undefined && !(API_VERSIONS as readonly string[]).includes(version.trim())) {
    throw new ApiError('unsupported_api_version', 'X-API-Version names a version this service does not serve.', {
      hint: `Send X-API-Version: ${API_VERSIONS.join(' or ')}, or leave the header out.`,
    });
  }
}
