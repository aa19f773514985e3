import { ApiError, errorBody, payloadTooLarge } from '../../http/api-error.ts';
import { CORS_HEADERS } from '../../http/cors.ts';
import { indent, PREFIX, quote } from './syntax.ts';

/** The largest body the service reads (a batch or an MCP message): nginx refuses a larger one itself. */
export const BODY_MAX_BYTES = 64 * 1024;

/** nginx's own id of the request (ngx_http_core_module, "$request_id": 32 hexadecimal digits). */
const REQUEST_ID = '$request_id';

/**
 * The refusals nginx makes itself, before the service sees the request, each answered in the
 * service's Error shape with the code the service uses for the same fault. 400: a request line
 * nginx cannot read, such as a path with an encoded NUL (`%00`) or a cut percent-encoding
 * (`%E0%A4%A`); 494: headers beyond large_client_header_buffers, which nginx answers as 400
 * (ngx_http_request.c, NGX_HTTP_REQUEST_HEADER_TOO_LARGE); 413: a body over client_max_body_size.
 */
const REFUSALS: readonly { status: number; answered: number; name: string; error: ApiError }[] = [
  {
    status: 400,
    answered: 400,
    name: 'bad_request',
    error: new ApiError('invalid_parameter', 'The request’s path, or its request line, is malformed.', {
      hint: 'Percent-encode the path as UTF-8, each % followed by two hexadecimal digits, and no encoded NUL (%00).',
    }),
  },
  {
    status: 494,
    answered: 400,
    name: 'headers_too_large',
    error: new ApiError('invalid_header', 'The request’s headers are larger than this server reads.', {
      hint: 'Send fewer or shorter headers.',
    }),
  },
  { status: 413, answered: 413, name: 'payload_too_large', error: payloadTooLarge(BODY_MAX_BYTES) },
];

/**
 * Where each refusal is answered: an internal URI, not a named location, since a request line
 * nginx could not read leaves no URI, and nginx redirects such a request to a URI but refuses to
 * a named location ("empty URI in redirect to named location": a 500). A client asking for the
 * URI itself gets 404 (`internal`).
 */
const refusalUri = (name: string) => `/.${PREFIX}-refusal/${name}`;

/**
 * The `error_page` lines of the TLS server. Where a location has error_page lines of its own
 * (`location /`, for its 404 page) these are not inherited (ngx_http_core_module, "error_page"),
 * so they answer for the service's locations, and for a request refused before any location is
 * chosen (a malformed request line), whatever its path. `=` lets the refusal's location choose
 * the status.
 */
export function refusalPages(): string[] {
  return REFUSALS.map(({ status, name }) => `error_page ${status} = ${refusalUri(name)};`);
}

/**
 * An internal location per refusal: its JSON, `$request_id` as the requestId and as X-Request-Id
 * (the id the access log can show, `$request_id` in log_format), and the headers the service
 * sends with an error: the security headers, no caching, and the API's CORS headers, so a
 * script on another origin can read the refusal as it reads the service's. `types { }` keeps
 * the path's extension from choosing the type.
 */
export function refusalLocations(commonHeaders: Readonly<Record<string, string>>): string[] {
  const headers = { ...commonHeaders, ...CORS_HEADERS, 'cache-control': 'no-store' };
  return REFUSALS.flatMap(({ answered, name, error }) => [
    `location = ${refusalUri(name)} {`,
    ...indent([
      'internal;',
      'types { }',
      'default_type "application/json; charset=utf-8";',
      ...Object.entries(headers).map(([header, value]) => `add_header ${header} ${quote(value)} always;`),
      `add_header x-request-id ${REQUEST_ID} always;`,
      `return ${answered} ${jsonText(error)};`,
    ]),
    '}',
  ]);
}

/** The error's body as an nginx string whose only variable is `$request_id`. */
function jsonText(error: ApiError): string {
  const json = JSON.stringify(errorBody(error, REQUEST_ID));
  if (/['\\\n]/.test(json) || json.split('$').length !== 2) throw new Error(`No nginx string for ${json}`);
  return `'${json}'`;
}
