/** What a test or a fixture script reads of an answer: its status, headers and JSON body (`{}` when empty). */
export interface ClientAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A request as one client sends it, with a JSON or a form body. */
export interface ClientRequest {
  /** The client's address, sent as X-Forwarded-For: the server under test trusts one proxy. */
  client: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
}

/** Sends `method url` to the server at `baseUrl` as `request.client`. */
export async function callAs(
  baseUrl: string,
  method: 'GET' | 'POST',
  url: string,
  request: ClientRequest,
): Promise<ClientAnswer> {
  const headers: Record<string, string> = { 'x-forwarded-for': request.client, ...request.headers };
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  const response = await fetch(`${baseUrl}${url}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as ClientAnswer['body']) : {},
  };
}
