/**
 * Progressive enhancement of the contact form: post JSON to the API with an Idempotency-Key
 * that stays the same while the visitor retries the same message (so a retry after a network
 * error can never send it twice), show each field's error inline, and keep the button disabled
 * while a request is in flight. Without JavaScript the form posts to /contact as it is.
 *
 * The page's spam guards go along as `form` (the fill-time token and the honeypot, named as in
 * functions/contact/contact-page.ts GUARD_FIELDS), so a post with JavaScript is judged as a plain
 * one is.
 *
 * The form is also the WebMCP tool send_message where the browser runs declared forms (its
 * toolname attribute): an agent's submit is this same submit, and its outcome is handed back to
 * the agent as a tool result (SubmitEvent.respondWith in the declarative WebMCP draft).
 */
import { apiResult, unreachable, type ToolResult } from './webmcp.ts';

const FIELDS = ['name', 'email', 'message'] as const;
const GUARDS = { token: 'form_token', honeypot: 'website' } as const;

interface ErrorBody {
  code?: string;
  message?: string;
  errors?: { field: string; problem: string }[];
}

const form = document.querySelector<HTMLFormElement>('form.contact-form');
if (form) enhance(form);

function enhance(form: HTMLFormElement): void {
  const status = form.querySelector<HTMLElement>('#form-status')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  let lastPayload = '';
  let key = '';
  // The server's checks speak for themselves, inline and accessibly, instead of the browser's bubbles.
  form.noValidate = true;

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const agent = event as SubmitEvent & {
      agentInvoked?: boolean;
      respondWith?: (result: Promise<ToolResult>) => void;
    };
    const sent = send(agent.agentInvoked === true);
    if (agent.agentInvoked === true) agent.respondWith?.(sent);
  });

  /**
   * Sends the form. A person's message that went through leads to the thanks page; an agent's
   * stays on this page with the outcome in the status line, so that leaving the page cannot cut
   * the agent off from its result.
   */
  async function send(forAgent: boolean): Promise<ToolResult> {
    const data = new FormData(form);
    const payload = {
      ...Object.fromEntries(FIELDS.map((field) => [field, String(data.get(field) ?? '')])),
      form: { token: String(data.get(GUARDS.token) ?? ''), honeypot: String(data.get(GUARDS.honeypot) ?? '') },
    };
    const text = JSON.stringify(payload);
    // A new message gets a new key; the same message, retried, keeps its key.
    if (text !== lastPayload || key === '') {
      key = crypto.randomUUID();
      lastPayload = text;
    }
    clearErrors(form);
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    say(status, 'Sending…');
    try {
      const response = await fetch(form.dataset.api ?? '/api/v1/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: text,
      });
      const sentText = 'Message sent. The owner replies by email.';
      const result = apiResult(response.clone(), () => sentText);
      if (response.ok) {
        if (forAgent) say(status, sentText);
        else window.location.assign('/contact/thanks');
        return await result;
      }
      const body = (await response.json().catch(() => ({}))) as ErrorBody;
      if (body.code === 'validation_failed' && body.errors) {
        showErrors(form, body.errors);
        say(status, 'Please correct the fields marked below.');
      } else if (response.status === 429 || response.status === 409 || response.status >= 500) {
        const wait = response.headers.get('retry-after');
        say(
          status,
          `${body.message ?? 'The server is busy.'} Your message is kept; send it again${wait ? ` in ${wait} seconds` : ' in a moment'}.`,
        );
      } else {
        key = '';
        say(status, body.message ?? 'The message could not be sent.');
      }
      return await result;
    } catch {
      say(status, 'Could not reach the server. Your message is kept; press Send to try again.');
      return unreachable('Submit the form again: the same message keeps its key and is sent at most once.');
    } finally {
      button.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }
}

function say(status: HTMLElement, text: string): void {
  status.textContent = text;
}

function clearErrors(form: HTMLFormElement): void {
  for (const field of FIELDS) {
    form.querySelector(`#${field}`)?.setAttribute('aria-invalid', 'false');
    const error = form.querySelector(`#${field}-error`);
    if (error) error.textContent = '';
  }
}

function showErrors(form: HTMLFormElement, errors: { field: string; problem: string }[]): void {
  let first: HTMLElement | null = null;
  for (const { field, problem } of errors) {
    const input = form.querySelector<HTMLElement>(`#${CSS.escape(field)}`);
    const slot = form.querySelector(`#${CSS.escape(field)}-error`);
    if (!input || !slot) continue;
    input.setAttribute('aria-invalid', 'true');
    slot.textContent = `${input.previousElementSibling?.textContent?.replace(/\(.*\)/, '').trim() ?? field} ${problem}.`;
    first ??= input;
  }
  first?.focus();
}
