import { createHash } from 'node:crypto';
import { ApiError } from '../http/api-error.ts';
import { charge } from '../limits/charge.ts';
import { rateLimitHeaders, type QuotaLimiter } from '../limits/rate-limiter.ts';
import type { Db } from '../state/database.ts';
import { fieldProblems } from '../http/field-problems.ts';
import { withStorage } from '../state/storage-errors.ts';
import type { IdempotencyStore, KeyRef, RecordedAnswer } from '../state/idempotency-store.ts';
import type { MessageStore } from './message-store.ts';
import { InFlightKeys } from './in-flight-keys.ts';
import { CONTACT_PROBLEM_WORDS, contactSchema } from './schema.ts';

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
  sandbox: boolean;
  /** The quota of the caller's tier, and who it counts against (the client IP, or the key). */
  limiter: QuotaLimiter;
  quotaKey: string;
  /** Produces the parsed body; called once the key is known to be free or recorded (it may read the network). */
  payload: () => Promise<unknown>;
}

export interface ContactDependencies {
  db: Db;
  idempotency: IdempotencyStore;
  messages: MessageStore;
  notifyConfigured: boolean;
  onStored: () => void;
}

const SCOPE = 'contact';

/**
 * createContact, shared by the JSON API, the plain form post and MCP: validation, the
 * Idempotency-Key rules, the per-IP quota and the durable write live here once.
 *
 * Order matters. A key with a recorded answer replays it without touching the message quota.
 * A new key is marked in flight before its body is read, so a concurrent request with the same
 * key gets a 409 instead of a second message; a body that fails validation then costs no write.
 * The message and the key's answer commit in one transaction before the answer goes out, so an
 * acknowledged message survives a crash and is never stored twice.
 */
export class ContactService {
  private readonly inFlight = new InFlightKeys();

  constructor(private readonly deps: ContactDependencies) {}

  async submit(request: ContactRequest): Promise<ContactOutcome> {
    const ref: KeyRef = { scope: SCOPE, sandbox: request.sandbox, key: request.key };
    const recorded = withStorage(() => this.deps.idempotency.find(ref));
    if (recorded !== undefined) return this.replay(recorded, await request.payload(), request);
    if (!this.inFlight.enter(ref)) throw inProgress();
    try {
      const raw = await request.payload();
      const parsed = contactSchema.safeParse(raw);
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
      const headers = await charge(request.limiter, quotaKeyOf(request), 1, 'messages');
      const answer = { fingerprint: fingerprintOf(raw), status: 200, body: JSON.stringify({ success: true }) };
      let earlier: RecordedAnswer | undefined;
      try {
        earlier = withStorage(() =>
          this.deps.db.transaction(() => {
            // Another process may have stored this key's message while the body was arriving.
            const stored = this.deps.idempotency.find(ref);
            if (stored !== undefined) return stored;
            const notifyState = request.sandbox ? 'sandbox' : this.deps.notifyConfigured ? 'pending' : 'not_configured';
            this.deps.messages.insert({ sandbox: request.sandbox, ...parsed.data }, notifyState);
            this.deps.idempotency.save(ref, answer);
            return undefined;
          })(),
        );
      } catch (error) {
        // Nothing was stored, so the message must not use up the quota either.
        await request.limiter.refund(quotaKeyOf(request));
        throw error;
      }
      if (earlier !== undefined) {
        await request.limiter.refund(quotaKeyOf(request));
        return this.replay(earlier, raw, request);
      }
      if (!request.sandbox) this.deps.onStored();
      return { status: answer.status, body: answer.body, headers, replayed: false };
    } finally {
      this.inFlight.leave(ref);
    }
  }

  /** The key's first answer, for the same payload only; the quota as it stands, without counting this request. */
  private async replay(recorded: RecordedAnswer, payload: unknown, request: ContactRequest): Promise<ContactOutcome> {
    if (fingerprintOf(payload) !== recorded.fingerprint) throw reusedKey();
    return {
      status: recorded.status,
      body: recorded.body,
      headers: rateLimitHeaders(await request.limiter.peek(quotaKeyOf(request))),
      replayed: true,
    };
  }
}

/** Sandbox traffic has its own counters, so testing never eats a visitor's quota. */
function quotaKeyOf(request: ContactRequest): string {
  return request.sandbox ? `sandbox:${request.quotaKey}` : request.quotaKey;
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
