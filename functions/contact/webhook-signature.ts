import { createHmac } from 'node:crypto';

/** The header that carries a webhook post's signature. */
export const SIGNATURE_HEADER = 'Portfolio-Signature';

/**
 * The signature of one webhook post, in the scheme Stripe uses for its own: `t=<unix seconds>,
 * v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>`. Signing the timestamp with the
 * body lets a receiver refuse a captured post replayed later (content/docs/developers/webhooks.md
 * shows the check).
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
