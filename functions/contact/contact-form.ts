import { randomUUID } from 'node:crypto';
import { ApiError, type FieldProblem } from '../http/api-error.ts';
import { isFormContentType } from '../http/json-body.ts';
import { OPEN_TO_ALL } from '../http/cors.ts';
import { asApiError } from '../http/known-errors.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';
import { prefersMarkdown } from '../http/prefers-markdown.ts';
import type { RequestContext } from '../http/request-context.ts';
import { headerValue, type ApiRequest, type ApiResponse } from '../http/types.ts';
import { withLlmsTxtPointer } from '../site/llms-txt-pointer.ts';
import { MARKDOWN, markdownAlternateLink, markdownTwinPath } from '../site/markdown-twin.ts';
import { contactAsMarkdown } from './contact-markdown.ts';
import type { ContactService } from './contact-service.ts';
import {
  CONTACT_FIELDS,
  GUARD_FIELDS,
  type ContactField,
  type ContactPage,
  type ContactPageState,
} from './contact-page.ts';
import { formPostFromSite, formPostRefused } from './form-origin.ts';
import type { FormTokens } from './form-token.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { CONTACT_LIMITS } from './schema.ts';
import type { PublicOrigins } from '../config/public-urls.ts';
import { linksToSite } from '../site/links-to-site.ts';

const HTML = 'text/html; charset=utf-8';
const THANKS = '/contact/thanks';

/**
 * /contact for browsers without JavaScript: GET renders the form with a fresh idempotency
 * token and a fill-time token; POST (a plain urlencoded form) goes through the same ContactService
 * as the API, its spam guards passed on as the page's script passes them (`form`), then
 * redirects to the thank-you page (post/redirect/get) or renders the form again with the
 * visitor's values and each problem next to its field. Every post counts one request against
 * the request quota, as an API call does; an accepted message also counts against the message quota.
 * With API_ORIGIN, a post is taken only from the site's own pages (./form-origin.ts).
 * Its Markdown twin (/contact.md, or GET /contact with Accept: text/markdown) tells an agent how to
 * send the same message through the API.
 */
export function contactFormHandler(
  service: ContactService,
  /** The fill-time tokens' signer, whose key is read when first needed. */
  formTokens: () => Promise<FormTokens>,
  page: ContactPage,
  origins: PublicOrigins,
) {
  const { siteUrl, apiOrigin } = origins;
  const markdown = withLlmsTxtPointer(contactAsMarkdown(origins), siteUrl);
  const twinLink = markdownAlternateLink(`${siteUrl}${markdownTwinPath('/contact')}`);
  /**
   * A new fill-time token, or none while its key cannot be read (the database down): the page is
   * still shown, and a post of it is then checked as one of a page that carried no token.
   */
  const freshFormToken = () =>
    formTokens().then(
      (tokens) => tokens.issue(),
      () => '',
    );
  // On an origin of its own, the service sends the visitor back to the pages on SITE_URL.
  const thanks = apiOrigin === null ? THANKS : `${siteUrl}${THANKS}`;
  const onSite = (body: string) => (apiOrigin === null ? body : linksToSite(body, siteUrl));
  const fromSite = formPostFromSite(origins);

  const html = (status: number, state: ContactPageState, headers: Record<string, string> = {}): ApiResponse => ({
    status,
    headers: { 'content-type': HTML, 'cache-control': 'no-store', link: twinLink, vary: 'Accept', ...headers },
    body: onSite(page.render(state)),
  });

  /** `context`: a visitor of the page (RequestContexts.visitor), anonymous and never in sandbox mode. */
  return async (request: ApiRequest, context: RequestContext): Promise<ApiResponse> => {
    const twinUrl = request.path.endsWith('.md');
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (twinUrl && !read) return methodNotAllowed('GET, HEAD');
    if (read && (twinUrl || prefersMarkdown(headerValue(request, 'accept')))) {
      const vary: Record<string, string> = twinUrl ? {} : { vary: 'Accept' };
      return {
        status: 200,
        headers: { 'content-type': MARKDOWN, 'cache-control': 'no-store', ...OPEN_TO_ALL, ...vary },
        body: markdown,
      };
    }
    if (read) return html(200, { token: randomUUID(), formToken: await freshFormToken() });
    if (request.method !== 'POST') return methodNotAllowed('GET, HEAD, POST');

    let values: Record<ContactField, string> = { name: '', email: '', message: '' };
    let token: string = randomUUID();
    let formToken = '';
    try {
      await context.charge('read');
      // Refused before the body is read: the form is shown again empty, never with what a foreign page filled in.
      if (!fromSite(request)) throw formPostRefused(origins);
      if (!isFormContentType(request)) {
        throw new ApiError('unsupported_media_type', 'This form must be sent as a regular form post.');
      }
      const form = new URLSearchParams((await request.readBody(CONTACT_LIMITS.bodyMaxBytes)).toString('utf8'));
      values = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, form.get(field) ?? ''])) as Record<
        ContactField,
        string
      >;
      // A form shown again keeps its fill time running from the first view; a bad token gets a new one.
      formToken = form.get(GUARD_FIELDS.formToken) ?? '';
      const guards = { token: formToken, honeypot: form.get(GUARD_FIELDS.honeypot) ?? '' };
      const tokens = await formTokens();
      if (!['ok', 'too_fast'].includes(tokens.check(formToken))) formToken = tokens.issue();
      // The page as a static file carries no key: this post is then its own (a resent form may be sent twice).
      const key = form.get('idempotency_key') ?? '';
      try {
        if (key !== '') token = parseIdempotencyKey(key);
      } catch {
        return html(400, { token, formToken, values, summary: 'This form had expired. Please press Send again.' });
      }
      await service.submit({
        key: token,
        context,
        payload: async () => ({ ...values, form: guards }),
      });
      return {
        status: 303,
        headers: { location: thanks, 'cache-control': 'no-store', 'content-length': '0' },
        body: null,
      };
    } catch (thrown) {
      const error = asApiError(thrown);
      if (error === undefined) throw thrown;
      // A key already used for another message cannot send this one: offer a fresh key.
      if (error.code === 'idempotency_key_reused') token = randomUUID();
      const summary =
        error.code === 'validation_failed'
          ? 'Please correct the fields marked below.'
          : `${error.message} ${error.hint ?? ''}`.trim();
      const errors = (error.errors ?? []).filter((detail): detail is FieldProblem => 'field' in detail);
      return html(
        error.status,
        { token, formToken: formToken === '' ? await freshFormToken() : formToken, values, summary, errors },
        error.headers,
      );
    }
  };
}
