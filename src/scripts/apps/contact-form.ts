// The contact view: a form that sends the owner a message through the host (tools/call
// submit_contact, the tool this view belongs to). One idempotency key per message, reused on a
// retry after a failure, so a message is stored once however often it is sent; an agent's own
// submit_contact call shows here as its answer.
import { CONTACT_FIELDS } from '../../../functions/contact/contact-page.ts';
import { byId, startView } from './view.ts';

const form = byId<HTMLFormElement>('contact');
const status = byId('view-status');
const button = form.querySelector('button');
let key = crypto.randomUUID();

const host = startView<{ success: boolean }>(
  'contact-form',
  ({ success }) => {
    status.textContent = success ? 'Message sent. Thank you!' : 'The message was not sent.';
  },
  {
    // What the agent sent, shown in the form, so a person sees which message it was.
    toolInput: (args) => {
      for (const field of CONTACT_FIELDS) {
        const value = args[field];
        const input = form.elements.namedItem(field);
        if (typeof value === 'string' && (input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement))
          input.value = value;
      }
    },
  },
);

/** The message of a failed call: the API's Error body, or the host's refusal. */
function failure(text: string | undefined): string {
  try {
    return (JSON.parse(text ?? '') as { message?: string }).message ?? 'The message was not sent.';
  } catch {
    return text ?? 'The message was not sent.';
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!form.reportValidity()) return;
  const values = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, (form.elements.namedItem(field) as HTMLInputElement).value]),
  );
  if (button) button.disabled = true;
  status.textContent = 'Sending…';
  host
    .callServerTool('submit_contact', { ...values, idempotency_key: key })
    .then((result) => {
      if (result.isError === true) {
        status.textContent = failure(result.content?.find((item) => item.type === 'text')?.text);
        return;
      }
      status.textContent = 'Message sent. Thank you!';
      form.reset();
      key = crypto.randomUUID();
    })
    .catch((error: unknown) => {
      status.textContent = failure(error instanceof Error ? error.message : undefined);
    })
    .finally(() => {
      if (button) button.disabled = false;
    });
});
