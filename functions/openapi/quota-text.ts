import type { Config } from '../config/env.ts';
import { quotaTable, type QuotaName } from '../limits/quotas.ts';
import { OPERATIONS, type OperationId } from '../operations.ts';

/**
 * Quotas a handler charges itself besides the router's, because the cost depends on the request:
 * a batch counts one read per further operation, a contact message counts once it is valid,
 * and a key counts per client IP whatever the caller holds.
 */
const HANDLER_CHARGED: Partial<Record<OperationId, QuotaName>> = { batchOperations: 'read', createContact: 'contact', createKey: 'keys' };

/** The quotas an operation counts against, the router's first. */
export function quotasOf(operationId: OperationId): QuotaName[] {
  const spec = OPERATIONS[operationId];
  const quotas = new Set<QuotaName>();
  if ('quota' in spec) quotas.add(spec.quota);
  const charged = HANDLER_CHARGED[operationId];
  if (charged !== undefined) quotas.add(charged);
  return [...quotas];
}

const UNITS: Record<QuotaName, string> = { read: 'requests', contact: 'messages', keys: 'keys' };

/** The quota in numbers, from the running configuration (the table pricing.md is made from too). */
export function quotaSentence(config: Config, quota: QuotaName): string {
  const table = quotaTable(config);
  const anonymous = table.anonymous[quota];
  const test = table.test[quota];
  const unit = UNITS[quota];
  const after = 'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset report it; past it the answer is 429 with Retry-After.';
  // Key creation is counted per client IP whatever the tier (limits/quotas.ts), so a key cannot mint keys faster.
  if (quota === 'keys') return `Quota: ${anonymous.count} ${unit} per ${anonymous.seconds} seconds per client IP, with or without a key. ${after}`;
  return `Quota: ${anonymous.count} ${unit} per ${anonymous.seconds} seconds per client IP; with a test key, ${test.count} ${unit} per ${test.seconds} seconds per key. ${after}`;
}
