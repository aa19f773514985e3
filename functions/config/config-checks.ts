import { accessSync, constants } from 'node:fs';
import { redactUrl } from './redact-url.ts';
import { ConfigError, effectiveValue, readVariable, type Env } from './read-variable.ts';

// The rules no one variable's kind can check: between variables, or against the machine.

/**
 * BACKEND_ORIGIN: where a static host proxies the dynamic paths of SITE_URL. Not with API_ORIGIN:
 * the pages would name API_ORIGIN, and the proxy to another origin would be a second, unused way
 * in. Not the site's own origin either: the host would proxy each request to itself.
 */
export function backendOrigin(env: Env, site: string, api: string | null): string | null {
  const origin = readVariable(env, 'BACKEND_ORIGIN');
  if (origin === null) return null;
  if (api !== null)
    throw new ConfigError(
      'BACKEND_ORIGIN',
      origin,
      `empty while API_ORIGIN is set (${api}): set one of them, BACKEND_ORIGIN to keep the service behind SITE_URL's proxy rules, API_ORIGIN to name its origin in the pages`,
    );
  if (origin === new URL(site).origin)
    throw new ConfigError('BACKEND_ORIGIN', origin, `an origin other than SITE_URL's (${origin}), or empty`);
  return origin;
}

/** The query parameters of DATABASE_URL that name a file the driver reads when it connects. */
const DATABASE_URL_FILES = ['sslkey', 'sslcert', 'sslrootcert'] as const;

/**
 * DATABASE_URL, with each file it names (the TLS key and certificates) readable now: the driver
 * reads them only when it first connects, and a missing one would stop the process there with a
 * stack trace instead of this one line.
 */
export function databaseUrl(env: Env): string | null {
  const url = readVariable(env, 'DATABASE_URL');
  if (url === null) return null;
  const params = new URL(url).searchParams;
  for (const name of DATABASE_URL_FILES) {
    const file = params.get(name);
    if (file === null) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError('DATABASE_URL', redactUrl(url), `its ${name} file ${file} to be readable (${reason})`);
    }
  }
  return url;
}

/** REQUEST_TIMEOUT_MS, at least HEADERS_TIMEOUT_MS: node refuses a header timeout longer than the request timeout. */
export function requestTimeoutMs(env: Env, headersTimeoutMs: number): number {
  const requestTimeout = readVariable(env, 'REQUEST_TIMEOUT_MS');
  if (requestTimeout < headersTimeoutMs)
    throw new ConfigError(
      'REQUEST_TIMEOUT_MS',
      String(requestTimeout),
      `at least HEADERS_TIMEOUT_MS (${headersTimeoutMs})`,
    );
  return requestTimeout;
}

const EMAIL_VARIABLES = ['SMTP_URL', 'NOTIFY_EMAIL_TO', 'NOTIFY_EMAIL_FROM'] as const;

/** Email delivery: SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM go together, all set or none. */
export function emailSettings(env: Env): { smtpUrl: string; to: string; from: string } | null {
  const set = EMAIL_VARIABLES.filter((variable) => effectiveValue(env, variable) !== '');
  if (set.length === 0) return null;
  const missing = EMAIL_VARIABLES.find((variable) => !set.includes(variable));
  if (missing !== undefined)
    throw new ConfigError(
      missing,
      '',
      `a value: ${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set, and email delivery needs all of SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM (or none)`,
    );
  // Each is set, so none reads as null.
  return {
    smtpUrl: readVariable(env, 'SMTP_URL')!,
    to: readVariable(env, 'NOTIFY_EMAIL_TO')!,
    from: readVariable(env, 'NOTIFY_EMAIL_FROM')!,
  };
}
