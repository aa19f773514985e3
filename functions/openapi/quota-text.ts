import type { Config } from '../config/env.ts';
import { quotaTable, type QuotaName } from '../limits/quotas.ts';
import { OPERATIONS, type OperationId, type OperationSpec } from '../operations/operations.ts';

/** The quotas an operation counts against (`quota` and `handlerQuota` of its entry), the router's first. */
export function quotasOf(operationId: OperationId): QuotaName[] {
  const { quota, handlerQuota }: OperationSpec = OPERATIONS[operationId];
  return [...new Set([quota, handlerQuota].filter((name) => name !== undefined))];
}

const UNITS: Record<QuotaName, string> = { read: 'requests', contact: 'messages', keys: 'keys' };

/** The quota in numbers, from the running configuration (the table pricing.md is made from too). */
export function quotaSentence(config: Config, quota: QuotaName): string {
  const table = quotaTable(config);
  const anonymous = table.anonymous[quota];
  const test = table.test[quota];
  const unit = UNITS[quota];
  const after =
    'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset report it; past it the answer is 429 with Retry-After.';
  // Key creation is counted per client IP whatever the tier (limits/quotas.ts), so a key cannot mint keys faster.
  if (quota === 'keys')
    return `Quota: ${anonymous.count} ${unit} per ${anonymous.seconds} seconds per client IP, with or without a key. ${after}`;
  return `Quota: ${anonymous.count} ${unit} per ${anonymous.seconds} seconds per client IP; with a test key, ${test.count} ${unit} per ${test.seconds} seconds per key. ${after}`;
}
