/** Query parameters whose value is, or may be, a secret: by a word in their name (password, sslpassword, sslkey, token, ...). */
const SECRET_PARAMETER = /pass|pwd|secret|token|key|auth|cred/i;

/** What stands in for a secret left out. */
const HIDDEN = '***';

/**
 * A connection URL (DATABASE_URL, REDIS_URL) as it may be shown in logs, errors and command
 * output: the password of its user part left out, and the value of every query parameter whose
 * name suggests a secret (`password`, `sslpassword`, `sslkey`, ...) replaced by `***`. Text that
 * is not a URL is redacted the same way as far as it looks like one. Every place that shows such
 * a URL goes through this one function.
 */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    url.password = '';
    for (const name of new Set(url.searchParams.keys()))
      if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, HIDDEN);
    return url.href;
  } catch {
    return text
      .replace(/(\/\/[^:@/?#\s]*):[^@/?#\s]*@/, '$1@')
      .replace(/([?&]([^=&#]*)=)([^&#]*)/g, (whole, head: string, name: string) =>
        SECRET_PARAMETER.test(name) ? `${head}${HIDDEN}` : whole,
      );
  }
}
