import { CONTACT_LIMITS } from '../../functions/contact/schema.ts';

/** The one-line fields of the contact form, on the contact page and in the MCP Apps contact view. */
export const CONTACT_INPUT_FIELDS = [
  { id: 'name', label: 'Your name', type: 'text', autocomplete: 'name', max: CONTACT_LIMITS.nameMax },
  { id: 'email', label: 'Your email', type: 'email', autocomplete: 'email', max: CONTACT_LIMITS.emailMax },
] as const;
