/**
 * The /contact page's WebMCP tool, send_message, where the browser does not run the form's own
 * declaration of it (registerPageTools leaves a tool a form declares to a browser that does):
 * posts to createContact as the form's script does. Each distinct message gets its own
 * Idempotency-Key, kept for the page's life, so a call repeated after a lost answer or a timeout
 * is the same request to the API: stored once, and answered again with the first answer. The API
 * counts the message against the caller's quota.
 */
import { apiResult, registerPageTools, unreachable } from './webmcp.ts';

/** Idempotency-Key by message, the message written with its fields in a fixed order. */
const keys = new Map<string, string>();

registerPageTools({
  send_message: async (input, api) => {
    const message = JSON.stringify(
      Object.keys(input)
        .sort()
        .map((field) => [field, input[field]]),
    );
    const key = keys.get(message) ?? crypto.randomUUID();
    keys.set(message, key);
    try {
      const response = await fetch(api, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(input),
      });
      return await apiResult(response, () =>
        response.headers.get('idempotent-replayed') === 'true'
          ? 'This message was already sent by an earlier call; it was stored once.'
          : 'Message sent. The owner replies by email.',
      );
    } catch {
      return unreachable('Call send_message again with the same arguments: it is sent at most once.');
    }
  },
});
