import { createHmac, timingSafeEqual } from 'node:crypto';

/** A token older than this is stale: nobody keeps the page open for a day before writing. */
export const FORM_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/**
 * How far in the future a token may have been issued: another instance behind the same site
 * whose clock runs ahead of this one's signs times this one has not reached yet. Within it the
 * fill time cannot be told, so the form counts as filled in time.
 */
export const FORM_TOKEN_CLOCK_SKEW_MS = 5 * 60 * 1000;
/**
 * Messages kept from one token before the next counts as spam: a person sends one message per
 * page (the page moves on to the thank-you page), perhaps another after going back; a script
 * that fetched one page and posts with its token for a day does not get past this. Counted in the
 * quotas' store (functions/limits/quotas.ts), shared by every instance on Redis.
 */
export const FORM_TOKEN_MAX_MESSAGES = 3;

/**
 * What a form post's token says about how the form was filled. `not_issued`: no token, from a
 * contact page that is a static file (the pages on their own host, API_ORIGIN set), which
 * carries none; it says nothing either way.
 */
export type FormTokenCheck = 'ok' | 'not_issued' | 'too_fast' | 'missing' | 'invalid' | 'expired' | 'reused';

/**
 * The contact page's fill-time token: the time the page was issued, signed with the deployment's
 * `form` secret (HMAC-SHA256), so a post can tell how long the form was open without the server
 * keeping any state, on any instance. A person takes seconds to write a message; a bot posts at
 * once, replays an old token or makes one up.
 */
export class FormTokens {
  constructor(
    private readonly secret: Buffer,
    /** The shortest time a person takes to fill the form (CONTACT_MIN_FILL_SECONDS). */
    private readonly minFillMs: number,
    /**
     * Whether the contact page is served by this service, with a token in it. When the pages are
     * static files on their own host (API_ORIGIN set), the page has none, so a post without one
     * is no sign of a bot; a token that is there is still checked.
     */
    private readonly pageCarriesToken = true,
  ) {}

  issue(now = Date.now()): string {
    const issued = now.toString(36);
    return `${issued}.${this.sign(issued)}`;
  }

  check(token: string | undefined, now = Date.now()): FormTokenCheck {
    if (token === undefined || token === '') return this.pageCarriesToken ? 'missing' : 'not_issued';
    const [issued = '', signature = '', ...rest] = token.split('.');
    const expected = Buffer.from(this.sign(issued));
    const given = Buffer.from(signature);
    if (rest.length > 0 || !/^[0-9a-z]{1,11}$/.test(issued) || given.length !== expected.length) return 'invalid';
    if (!timingSafeEqual(given, expected)) return 'invalid';
    const age = now - parseInt(issued, 36);
    if (age < -FORM_TOKEN_CLOCK_SKEW_MS) return 'invalid';
    if (age < 0) return 'ok';
    if (age > FORM_TOKEN_MAX_AGE_MS) return 'expired';
    return age < this.minFillMs ? 'too_fast' : 'ok';
  }

  private sign(issued: string): string {
    return createHmac('sha256', this.secret).update(`contact-form.${issued}`).digest('base64url');
  }
}
