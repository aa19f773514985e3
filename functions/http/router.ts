import { ApiError, errorResponse, internalError, problemResponse } from './api-error.ts';
import { CORS_HEADERS, crossOriginRefused, preflightAnswer } from './cors.ts';
import { asApiError } from './known-errors.ts';
import { RequestAborted } from './request-aborted.ts';
import { RouteTable, type RouteMatch } from './route-table.ts';
import type { Paid, RequestContext, RequestContexts } from './request-context.ts';
import type { QuotaName } from '../limits/quotas.ts';
import { andThen, type Eventually } from '../limits/rate-limiter.ts';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from './types.ts';

export type RouteHandler = (
  request: ApiRequest,
  params: Record<string, string>,
  context: RequestContext,
) => ApiResponse | Promise<ApiResponse>;

/** One operation of the API with its handler (the specs live in functions/operations/operations.ts). */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  /**
   * The quota one request counts against, charged before the handler runs (per key for the
   * test tier, else per IP). Operations whose cost depends on the body charge it themselves.
   */
  quota?: QuotaName | undefined;
  handler: RouteHandler;
}

/**
 * Versions X-API-Version may name: only v1, the same version as the /api/v1 path prefix. A
 * client pinning a version it was written for gets a clear refusal rather than another shape.
 */
export const API_VERSIONS = ['v1'] as const;

/**
 * RFC 8288 links every API response carries to the catalog (RFC 9727), the description and the
 * AI Catalog: its `ard` relation at /.well-known/ard.json (Agentic Resource Discovery v0.91,
 * section 5.1) and its `ai-catalog` relation (Agent-Card/ai-catalog, specification/ai-catalog.md,
 * "Link Relation Discovery"), which ARD keeps as legacy; each type hint is the media type that URL
 * is served with (functions/hosts/static/media-types.ts; the paths are
 * functions/site/discovery-documents.ts's, which this layer cannot import;
 * tests/system/mcp-cards-inspector.test.ts holds them equal).
 */
export const DISCOVERY_LINKS =
  '</.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc"; type="application/json", ' +
  '</.well-known/ard.json>; rel="ard"; type="application/ai-catalog+json", ' +
  '</.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json"';

/**
 * Request headers that change an API answer (the tier, sandbox mode and the headers that say so),
 * named in Vary (RFC 9110 section 12.5.5) so that no cache hands one caller's answer to another.
 * A sandbox host needs no entry: the host is part of every cache key (RFC 9111 section 2).
 */
const CALLER_HEADERS = 'Authorization, X-API-Key, X-Sandbox';

const SAFE_INSTANCE = /^[A-Za-z0-9/._~-]{1,200}$/;

type ErrorLogger = (requestId: string, error: unknown) => void;

export interface RouterOptions {
  /** Resolves each request's caller and charges it; the quotas themselves are not the router's business. */
  contexts: Pick<RequestContexts, 'of'>;
  logError: ErrorLogger;
  /** Whether a request comes from a browser page on a foreign origin (cors.ts crossOriginWriter). */
  isForeignOrigin: (request: ApiRequest) => boolean;
}

/**
 * Dispatches a request to its route and applies what every API response shares: the request id,
 * CORS (reads open to every origin, writes to the site's own pages and to callers with a key),
 * 404 for unknown paths, 405 with Allow, the X-API-Version check, the quota and the Error shape.
 * A handler throws ApiError for expected failures; anything else is a 500 whose details go only
 * to the log.
 */
export class Router {
  private readonly routes: RouteTable<Route>;
  private readonly options: RouterOptions;

  constructor(routes: readonly Route[], options: RouterOptions) {
    this.routes = new RouteTable(routes);
    this.options = options;
  }

  /** `paid`: quota the caller already paid for this request elsewhere (see Paid). */
  async handle(request: ApiRequest, paid?: Paid): Promise<ApiResponse> {
    return this.answer(request, paid);
  }

  /**
   * The same answer, returned as it is when every step was synchronous (a cached read): each
   * promise in between would cost an allocation and a microtask turn per request. Whatever a step
   * throws or rejects with becomes an error answer; only RequestAborted escapes, thrown or rejected.
   */
  answer(request: ApiRequest, paid?: Paid): Eventually<ApiResponse> {
    let dispatched: Eventually<ApiResponse>;
    try {
      dispatched = this.dispatch(request, paid);
    } catch (error) {
      dispatched = this.renderError(request, error, {});
    }
    return dispatched instanceof Promise
      ? dispatched.then(
          (response) => finish(request, response),
          (error: unknown) => finish(request, this.renderError(request, error, {})),
        )
      : finish(request, dispatched);
  }

  private dispatch(request: ApiRequest, paid: Paid | undefined): Eventually<ApiResponse> {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const matches = this.routes.matches(request.path);
    const pathExists = matches.length > 0;
    const match = matches.find(({ route }) => route.method === method);
    if (!pathExists) {
      throw new ApiError('not_found', 'No API operation lives at this path.', {
        hint: 'See /openapi.json for every operation.',
      });
    }
    if (match === undefined || request.method === 'OPTIONS') {
      const allow = allowedMethods(matches);
      if (request.method === 'OPTIONS')
        return preflightAnswer(request, allow, this.options.isForeignOrigin, request.requestId);
      throw new ApiError('method_not_allowed', `${request.method} is not allowed here.`, {
        hint: `Use ${allow}.`,
        headers: { allow },
      });
    }
    const { route, params } = match;
    const headers: HeaderMap = {};
    const refuse = (error: unknown) => this.renderError(request, error, headers, route.path);
    try {
      // What is known at once is not awaited: each await is a microtask turn per request.
      const answered = andThen(this.options.contexts.of(request, paid), (context) => {
        Object.assign(headers, contextHeaders(context));
        const charged = route.quota === undefined ? undefined : context.charge(route.quota);
        return andThen(charged, (quotaHeaders) => {
          if (quotaHeaders !== undefined) Object.assign(headers, quotaHeaders);
          checkApiVersion(request);
          // A foreign page may read, but write only with a key: else any page could make its visitors'
          // browsers post for it (Fetch standard: the page cannot read the answer, but the POST is made).
          if (route.method === 'POST' && context.keyStatus !== 'valid' && this.options.isForeignOrigin(request))
            throw crossOriginRefused();
          return andThen(route.handler(request, params, context), (response) => {
            Object.assign(response.headers, CORS_HEADERS);
            addMissing(response.headers, headers);
            addDiscoveryLinks(response);
            return response;
          });
        });
      });
      return answered instanceof Promise ? answered.catch(refuse) : answered;
    } catch (error) {
      return refuse(error);
    }
  }

  private renderError(
    request: ApiRequest,
    error: unknown,
    extraHeaders: HeaderMap,
    template = request.path,
  ): ApiResponse {
    // Nobody is left to answer; the server logs the request as aborted.
    if (error instanceof RequestAborted) throw error;
    let apiError = asApiError(error);
    if (apiError === undefined) {
      this.options.logError(request.requestId, error);
      apiError = internalError();
    }
    // The problem's instance repeats the path only when it is short and plain; odd input is not echoed.
    const instance = SAFE_INSTANCE.test(request.path) ? request.path : template;
    const response = apiError.problem
      ? problemResponse(apiError, request.requestId, instance)
      : errorResponse(apiError, request.requestId);
    Object.assign(response.headers, CORS_HEADERS);
    addMissing(response.headers, extraHeaders);
    addDiscoveryLinks(response);
    return response;
  }
}

/** What every API answer gets last: the request id, the Vary of the caller headers, no body for HEAD. */
function finish(request: ApiRequest, response: ApiResponse): ApiResponse {
  response.headers['x-request-id'] = request.requestId;
  response.headers.vary =
    response.headers.vary === undefined ? CALLER_HEADERS : `${response.headers.vary}, ${CALLER_HEADERS}`;
  if (request.method === 'HEAD') response.body = null;
  return response;
}

/**
 * Adds the router's headers that the handler did not set itself: a quota the handler charged
 * after the router's is the later count. Assigned in place: spreading a dozen headers into a new
 * object per request measured at ten times the router's own work.
 */
function addMissing(target: HeaderMap, source: HeaderMap): void {
  for (const name in source) if (target[name] === undefined) target[name] = source[name] as string;
}

/** Every API answer, errors too, links to the catalog and the description (after any link of its own). */
function addDiscoveryLinks(response: ApiResponse): void {
  const link = response.headers.link;
  response.headers.link = link === undefined ? DISCOVERY_LINKS : `${link}, ${DISCOVERY_LINKS}`;
}

/** Every response says which mode and tier served it, and whether a presented key was ignored. */
function contextHeaders(context: RequestContext): HeaderMap {
  const headers: HeaderMap = { 'x-quota-tier': context.tier };
  if (context.sandbox) headers['x-sandbox'] = 'true';
  if (context.keyStatus !== 'none') headers['x-api-key-status'] = context.keyStatus;
  return headers;
}

function checkApiVersion(request: ApiRequest): void {
  const version = headerValue(request, 'x-api-version');
  if (version !== undefined && !(API_VERSIONS as readonly string[]).includes(version.trim())) {
    throw new ApiError('unsupported_api_version', 'X-API-Version names a version this service does not serve.', {
      hint: `Send X-API-Version: ${API_VERSIONS.join(' or ')}, or leave the header out.`,
    });
  }
}

/** The Allow header value for a path's routes (RFC 9110 section 10.2.1): HEAD with GET, and OPTIONS. */
function allowedMethods(matches: readonly RouteMatch<Route>[]): string {
  const allowed = new Set<string>();
  for (const { route } of matches) {
    allowed.add(route.method);
    if (route.method === 'GET') allowed.add('HEAD');
  }
  allowed.add('OPTIONS');
  return [...allowed].join(', ');
}
