import type { FieldProblem } from '../http/api-error.ts';
import { escapeHtml } from '../http/html.ts';

/** What the contact page says about itself: the HTML page (src/pages/contact.astro) and its Markdown twin. */
export const CONTACT_PAGE = {
  title: 'Contact',
  description: 'Send me a message; I read every one.',
  intro: 'Questions about a project, or work you would like to do together? Send a message and I will reply by email.',
} as const;

export const CONTACT_FIELDS = ['name', 'email', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/**
 * The form's spam guards (functions/contact/spam-score.ts): the hidden fill-time token, and the
 * honeypot, a field people never see and bots fill in. src/scripts/contact-form.ts reads both by
 * these names.
 */
export const GUARD_FIELDS = { formToken: 'form_token', honeypot: 'website' } as const;

/**
 * The slots the prerendered contact page leaves for the server. Kept here, beside the code
 * that fills them, so the page and the filler cannot disagree on a name.
 */
export const FORM_SLOTS = {
  token: '{{token}}',
  formToken: '{{formtoken}}',
  summary: '{{summary}}',
  value: (field: ContactField) => `{{value:${field}}}`,
  error: (field: ContactField) => `{{error:${field}}}`,
  invalid: (field: ContactField) => `{{invalid:${field}}}`,
};

export interface ContactPageState {
  /** The Idempotency-Key of a plain form post. */
  token: string;
  /** The fill-time token (functions/contact/form-token.ts). */
  formToken: string;
  summary?: string;
  values?: Partial<Record<ContactField, string>>;
  errors?: readonly FieldProblem[];
}

const LABELS: Record<ContactField, string> = { name: 'Name', email: 'Email', message: 'Message' };

/**
 * The contact page for one request: a fresh idempotency token for a plain form post, the
 * fill-time token, and on a failed post the visitor's values and each field's error, all HTML-escaped.
 */
export class ContactPage {
  constructor(private readonly template: string) {}

  render(state: ContactPageState): string {
    const errors = new Map<string, string>();
    for (const { field, problem } of state.errors ?? []) {
      if (!errors.has(field)) errors.set(field, problem);
    }
    const slots = new Map<string, string>([
      [FORM_SLOTS.token, escapeHtml(state.token)],
      [FORM_SLOTS.formToken, escapeHtml(state.formToken)],
      [FORM_SLOTS.summary, escapeHtml(state.summary ?? '')],
    ]);
    for (const field of CONTACT_FIELDS) {
      const error = errors.get(field);
      slots.set(FORM_SLOTS.value(field), escapeHtml(state.values?.[field] ?? ''));
      slots.set(FORM_SLOTS.error(field), error === undefined ? '' : escapeHtml(`${LABELS[field]} ${error}.`));
      slots.set(FORM_SLOTS.invalid(field), error === undefined ? 'false' : 'true');
    }
    return this.template.replace(/\{\{[a-z]+(?::[a-z]+)?\}\}/g, (slot) => slots.get(slot) ?? '');
  }
}
