/** A request quota: at most `count` requests per window of `seconds`. */
export interface RateQuota {
  count: number;
  seconds: number;
}

const QUOTA_PATTERN = /^(\d{1,9})\/(\d{1,9})$/;

/**
 * Parses a quota written as `<count>/<seconds>` (for example `120/60`).
 * Returns null for anything else, including zero counts or windows.
 */
export function parseRateQuota(text: string): RateQuota | null {
  const match = QUOTA_PATTERN.exec(text.trim());
  if (!match) return null;
  const count = Number(match[1]);
  const seconds = Number(match[2]);
  if (count < 1 || seconds < 1) return null;
  return { count, seconds };
}
