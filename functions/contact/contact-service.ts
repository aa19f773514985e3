import { createHash } from 'node:crypto';
import { ApiError } from '../http/api-error.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { QuotaLimiter } from '../limits/rate-limiter.ts';
import { OPERATIONS } from '../operations/operations.ts';
import { fieldProblems, PLAIN_WORDS } from '../config/field-problems.ts';
import type { IdempotencyStore, KeyRef, RecordedAnswer } from './idempotency-store.ts';
import type { FormTokens } from './form-token.ts';
import type { Channel, MessageStore, SubmissionOutcome } from './message-store.ts';
import { CONTACT_PROBLEM_WORDS, contactSchema } from './schema.ts';
import { spamScore, type FormSignals } from './spam-score.ts';

/** What a submission came to; `replayed` marks an answer repeated from the key's first request. */
export interface ContactOutcome {
  status: number;
  body: string;
  headers: Record<string, string>;
  replayed: boolean;
}

export interface ContactRequest {
  /** The parsed Idempotency-Key. */
  key: string;
  /**
   * The caller: its mode, the client address and test key its sandbox share counts against, and
   * the message quota it is charged on.
   */
  context: Pick<RequestContext, 'sandbox' | 'clientKey' | 'keyId' | 'charge' | 'refund'>;
  /** Produces the parsed body; called once the key is known to be free or recorded (it may read the network). */
  payload: () => Promise<unknown>;
}

export interface ContactDependencies {
  idempotency: IdempotencyStore;
  messages: MessageStore;
  /** Checks the fill-time token a post of the contact page carries (its key is read when first needed). */
  formTokens: () => Promise<FormTokens>;
  /** Messages kept per form token, FORM_TOKEN_MAX_MESSAGES in its lifetime (functions/contact/form-token.ts). */
  formTokenMessages: QuotaLimiter;
  /** The channels configured now: each live message is queued for delivery to each. */
  channels: readonly Channel[];
  /**
   * How long a claim on a key holds before another request may take it over: longer than any
   * request may last (REQUEST_TIMEOUT_MS), so only the claim of an instance that died runs out.
   */
  claimLeaseMs: number;
  /** The most sandbox message text one client, and one test key, may keep (SANDBOX_STORAGE_BYTES). */
  sandboxStorageBytes: number;
  onStored: () => void;
}

const SCOPE = 'contact';
/** The quota a message counts against, once it is valid (the `handlerQuota` of createContact). */
const MESSAGES = OPERATIONS.createContact.handlerQuota;

/**
 * createContact, shared by the JSON API, the plain form post and MCP: validation, the
 * Idempotency-Key rules, the per-IP quota, the spam verdict and the durable write live here once.
 *
 * Order matters. A key with a recorded answer replays it without touching the message quota.
 * A new key is claimed before its body is read, so a concurrent request with the same key, on
 * any instance, gets a 409 instead of a second message. The message and the key's answer
 * commit in one transaction before the answer goes out, so an acknowledged message survives a
 * crash and is never stored twice.
 *
 * A sandbox message counts against its client's and its test key's storage share: storing it deletes
 * their oldest sandbox messages beyond SANDBOX_STORAGE_BYTES, as a test inbox that keeps the newest.
 *
 * Spam (functions/contact/spam-score.ts) is answered exactly as any message, so a bot learns
 * nothing, and stored in the spam folder without deliveries: never notified, never lost.
 */
export class ContactService {
  constructor(private readonly deps: ContactDependencies) {}

  async submit(request: ContactRequest): Promise<ContactOutcome> {
    const { context } = request;
    const ref: KeyRef = { scope: SCOPE, sandbox: context.sandbox, key: request.key };
    const claim = await this.deps.idempotency.claim(ref, this.deps.claimLeaseMs);
    if (claim.kind === 'recorded') return this.replay(claim.answer, await request.payload(), request);
    if (claim.kind === 'in_flight') throw inProgress();
    let claimEnded = false;
    try {
      const raw = await request.payload();
      const parsed = contactSchema.safeParse(raw, PLAIN_WORDS);
      if (!parsed.success) {
        const errors = fieldProblems(parsed.error, CONTACT_PROBLEM_WORDS);
        throw new ApiError(
          'validation_failed',
          `The submission has ${errors.length} problem${errors.length > 1 ? 's' : ''}.`,
          {
            hint: 'Fix each field listed in errors and send again with the same Idempotency-Key.',
            errors,
          },
        );
      }
      const { form, ...fields } = parsed.data;
      const headers = await context.charge(MESSAGES, 1, 'messages');
      // The form token this message counts against, if any: only a stored message counts (see undo).
      let counted: string | undefined;
      let signals: FormSignals | undefined;
      if (form !== undefined) {
        let token = (await this.deps.formTokens()).check(form.token);
        if (token === 'ok') {
          if ((await this.deps.formTokenMessages.consume(form.token)).allowed) counted = form.token;
          else token = 'reused';
        }
        signals = { honeypot: form.honeypot, token };
      }
      const undo = async () => {
        await context.refund(MESSAGES);
        if (counted !== undefined) await this.deps.formTokenMessages.refund(counted);
      };
      const verdict = spamScore(fields, signals);
      const answer = { fingerprint: fingerprintOf(raw), status: 200, body: JSON.stringify({ success: true }) };
      let outcome: SubmissionOutcome;
      try {
        outcome = await this.deps.messages.storeSubmission({
          ref,
          token: claim.token,
          message: verdict.spam
            ? { sandbox: context.sandbox, ...fields, folder: 'spam', spamReasons: verdict.reasons }
            : { sandbox: context.sandbox, ...fields },
          // Sandbox traffic is anyone's test, and spam nobody's message: the owner is told about neither.
          channels: context.sandbox || verdict.spam ? [] : this.deps.channels,
          answer,
          sandboxShare: context.sandbox
            ? {
                client: context.clientKey,
                key: context.keyId,
                bytes: messageBytes(fields),
                maxBytes: this.deps.sandboxStorageBytes,
              }
            : undefined,
        });
        claimEnded = true;
      } catch (error) {
        // Nothing was stored, so the message must not use up the quota either.
        await undo();
        throw error;
      }
      if (!outcome.stored) {
        // The claim ran out and another request took the key over: its answer, or a 409 while it runs.
        await undo();
        if (outcome.earlier === undefined) throw inProgress();
        return this.replay(outcome.earlier, raw, request);
      }
      if (!context.sandbox && !verdict.spam) this.deps.onStored();
      return { status: answer.status, body: answer.body, headers, replayed: false };
    } finally {
      // A failed release (storage down) leaves the claim to run out after its lease.
      if (!claimEnded) await this.deps.idempotency.release(ref, claim.token).catch(() => undefined);
    }
  }

  /** The key's first answer, for the same payload only; the quota as it stands, without counting this request. */
  private async replay(recorded: RecordedAnswer, payload: unknown, request: ContactRequest): Promise<ContactOutcome> {
    if (fingerprintOf(payload) !== recorded.fingerprint) throw reusedKey();
    return {
      status: recorded.status,
      body: recorded.body,
      // Zero units count nothing: the headers say where the quota stands.
      headers: await request.context.charge(MESSAGES, 0, 'messages'),
      replayed: true,
    };
  }
}

/** What a message's text takes in storage: its fields in UTF-8. */
function messageBytes(fields: { name: string; email: string; message: string }): number {
  return Buffer.byteLength(fields.name) + Buffer.byteLength(fields.email) + Buffer.byteLength(fields.message);
}

function inProgress(): ApiError {
  return new ApiError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed.',
    {
      hint: 'Wait a moment and retry with the same key; you will get its answer.',
      headers: { 'retry-after': '1' },
    },
  );
}

function reusedKey(): ApiError {
  return new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different payload.', {
    hint: 'Use a new UUID for a new message; reuse a key only to retry the exact same message.',
  });
}

/** A payload's identity after parsing: key order and whitespace do not change it. */
export function fingerprintOf(payload: unknown): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
