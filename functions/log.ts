/**
 * Structured logs: one JSON object per line. Access-log lines are buffered and written in
 * batches, because a synchronous write per request would cost more than serving a cached read.
 */
const FLUSH_BYTES = 64 * 1024;
let pending = '';
let scheduled = false;

export function flushLog(): void {
  scheduled = false;
  if (pending === '') return;
  const chunk = pending;
  pending = '';
  process.stdout.write(chunk);
}

export function writeLogLine(entry: Record<string, unknown>): void {
  pending += `${JSON.stringify(entry)}\n`;
  if (pending.length >= FLUSH_BYTES) {
    flushLog();
  } else if (!scheduled) {
    scheduled = true;
    setImmediate(flushLog);
  }
}

/** An unexpected error, with its stack, for the operator only; the client sees the request id. */
export function logError(requestId: string, error: unknown): void {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
  writeLogLine({ time: new Date().toISOString(), level: 'error', requestId, ...detail });
  flushLog();
}

export function logEvent(message: string, fields: Record<string, unknown> = {}): void {
  writeLogLine({ time: new Date().toISOString(), level: 'info', message, ...fields });
  flushLog();
}
