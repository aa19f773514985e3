import { createHash } from 'node:crypto';
import { ApiError } from '../http/api-error.ts';
import { charge } from '../limits/charge.ts';
import { rateLimitHeaders, type RateLimiter } from '../limits/rate-limiter.ts';
import type { Db } from '../state/database.ts';
import { fieldProblems } from '../http/field-problems.ts';
import { withStorage } from '../state/storage-errors.ts';
import type { IdempotencyStore, KeyRef } from '../state/idempotency-store.ts';
import type { MessageStore } from '../state/message-store.ts';
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
  limiter: RateLimiter;
  quotaKey: string;
  /** Produces the parsed body; called once the key is claimed (it may read the network). */
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
 * Order matters. The key is claimed first, so a concurrent request with the same key gets a
 * 409 instead of a second message. A completed key replays its first answer without touching
 * the quota. The message and the key's outcome commit in one transaction before the answer
 * goes out, so an acknowledged message survives a crash and is never stored twice.
 */
export class ContactService {
  constructor(private readonly deps: ContactDependencies) {}

  async submit(request: ContactRequest): Promise<ContactOutcome> {
    const ref: KeyRef = { scope: SCOPE, sandbox: request.sandbox, key: request.key };
    const claim = withStorage(() => this.deps.idempotency.claim(ref));
    if (claim.kind === 'in_progress') {
      throw new ApiError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed.', {
        hint: 'Wait a moment and retry with the same key; you will get its answer.',
        headers: { 'retry-after': '1' },
      });
    }
    if (claim.kind === 'completed') {
      const fingerprint = fingerprintOf(await request.payload());
      if (fingerprint !== claim.fingerprint) throw reusedKey();
      return { status: claim.status, body: claim.body, headers: this.quotaHeaders(request), replayed: true };
    }

    try {
      const raw = await request.payload();
      const parsed = contactSchema.safeParse(raw);
      if (!parsed.success) {
        const errors = fieldProblems(parsed.error, CONTACT_PROBLEM_WORDS);
        throw new ApiError('validation_failed', `The submission has ${errors.length} problem${errors.length > 1 ? 's' : ''}.`, {
          hint: 'Fix each field listed in errors and send again with the same Idempotency-Key.',
          errors,
        });
      }
      const headers = charge(request.limiter, quotaKeyOf(request), 1, 'messages');
      const body = JSON.stringify({ success: true });
      try {
        withStorage(() =>
          this.deps.db.transaction(() => {
            const notifyState = request.sandbox ? 'sandbox' : this.deps.notifyConfigured ? 'pending' : 'not_configured';
            this.deps.messages.insert({ sandbox: request.sandbox, ...parsed.data }, notifyState);
            this.deps.idempotency.complete(ref, fingerprintOf(raw), 200, body);
          })(),
        );
      } catch (error) {
        // Nothing was stored, so the message must not use up the quota either.
        request.limiter.refund(quotaKeyOf(request));
        throw error;
      }
      if (!request.sandbox) this.deps.onStored();
      return { status: 200, body, headers, replayed: false };
    } catch (error) {
      withStorage(() => this.deps.idempotency.release(ref));
      throw error;
    }
  }

  /** The quota as it stands, without counting this request (for replays). */
  private quotaHeaders(request: ContactRequest): Record<string, string> {
    return rateLimitHeaders(request.limiter.peek(quotaKeyOf(request)));
  }
}

/** Sandbox traffic has its own counters, so testing never eats a visitor's quota. */
function quotaKeyOf(request: ContactRequest): string {
  return request.sandbox ? `sandbox:${request.quotaKey}` : request.quotaKey;
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
