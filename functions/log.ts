/**
 * Structured logs: one JSON object per line. Access-log lines are buffered and written in
 * batches (at 64 KiB or every 50 ms), because stdout writes are synchronous for files and pipes
 * and one per request would cost more than serving a cached read.
 */
const FLUSH_BYTES = 64 * 1024;
const FLUSH_INTERVAL_MS = 50;
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
  append(`${JSON.stringify(entry)}\n`);
}

/**
 * The access-log line, written by hand: it is the one line per request, and the generic
 * JSON.stringify of an object costs several times more than these few escaped strings.
 */
export function writeAccessLine(requestId: string, method: string, path: string, status: number, durationMs: number): void {
  append(
    `{"time":"${new Date().toISOString()}","requestId":${JSON.stringify(requestId)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"durationMs":${durationMs}}\n`,
  );
}

function append(line: string): void {
  pending += line;
  if (pending.length >= FLUSH_BYTES) {
    flushLog();
  } else if (!scheduled) {
    scheduled = true;
    setTimeout(flushLog, FLUSH_INTERVAL_MS).unref();
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

process.on('exit', flushLog);
