/**
 * Structured logs: one JSON object per line. Access-log lines are buffered and written in
 * batches (at 64 KiB or every 50 ms), because stdout writes are synchronous for files and pipes
 * and one per request would cost more than serving a cached read.
 */
const FLUSH_BYTES = 64 * 1024;
const FLUSH_INTERVAL_MS = 50;
/**
 * Lines not written yet, and their length: joined at each write into one flat string, which
 * costs less than appending each to one string (a chain that must be flattened to be written).
 */
let pending: string[] = [];
let pendingChars = 0;
let scheduled = false;
/** Set once stdout's reader has gone away (see flushLogOnExit): from then on lines are dropped. */
let logLost = false;

export function flushLog(): void {
  scheduled = false;
  if (logLost) dropPending();
  if (pending.length === 0) return;
  const chunk = pending.join('');
  dropPending();
  process.stdout.write(chunk);
}

function dropPending(): void {
  pending = [];
  pendingChars = 0;
}

function writeLogLine(entry: Record<string, unknown>): void {
  append(`${JSON.stringify(entry)}\n`);
}

/** What the access log records of one request. */
export interface AccessEntry {
  /** Ours, always (see http/request-id.ts). */
  requestId: string;
  /** The caller's X-Request-Id, when it sent a well-formed one. */
  clientRequestId: string | undefined;
  clientIp: string;
  method: string;
  path: string;
  /**
   * The status sent, or for a request that ended before its answer: 408 when our request
   * timeout cut it off, 499 when the client went away (the code nginx logs for that).
   */
  status: number;
  durationMs: number;
  /** The request ended before it was answered; nothing failed on our side. */
  aborted: boolean;
}

/**
 * The access-log line, written by hand: it is the one line per request, and the generic
 * JSON.stringify of an object costs several times more than these few escaped strings.
 */
export function writeAccessLine(entry: AccessEntry): void {
  const client =
    entry.clientRequestId === undefined ? '' : `,"clientRequestId":${JSON.stringify(entry.clientRequestId)}`;
  append(
    `{"time":"${isoNow()}","requestId":${JSON.stringify(entry.requestId)}${client},"clientIp":${JSON.stringify(entry.clientIp)},"method":${JSON.stringify(entry.method)},"path":${JSON.stringify(entry.path)},"status":${entry.status},"durationMs":${entry.durationMs}${entry.aborted ? ',"aborted":true' : ''}}\n`,
  );
}

let isoMs = 0;
let iso = '';

/**
 * The current time as the log writes it: formatted once per millisecond, since a busy server
 * writes dozens of lines within one and formatting a date costs more than the rest of a line.
 */
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    iso = new Date(now).toISOString();
  }
  return iso;
}

function append(line: string): void {
  pending.push(line);
  pendingChars += line.length;
  if (pendingChars >= FLUSH_BYTES) {
    flushLog();
  } else if (!scheduled) {
    scheduled = true;
    setTimeout(flushLog, FLUSH_INTERVAL_MS).unref();
  }
}

/** An unexpected error, with its stack, for the operator only; the client sees the request id. */
export function logError(requestId: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
  writeLogLine({ time: new Date().toISOString(), level: 'error', requestId, ...fields, ...detail });
  flushLog();
}

/**
 * Something the operator should look at or change while the service goes on on its own (a failed
 * delivery it will retry, a proxy header it ignores).
 */
export function logWarning(message: string, fields: Record<string, unknown> = {}): void {
  writeLogLine({ time: new Date().toISOString(), level: 'warning', message, ...fields });
  flushLog();
}

/**
 * Something expected that explains what follows it in the log, and asks nothing of the operator
 * (a connection a host closed at the end of its request): kept apart from errors by its level.
 */
export function logDebug(message: string, fields: Record<string, unknown> = {}): void {
  writeLogLine({ time: new Date().toISOString(), level: 'debug', message, ...fields });
}

export function logEvent(message: string, fields: Record<string, unknown> = {}): void {
  writeLogLine({ time: new Date().toISOString(), level: 'info', message, ...fields });
  flushLog();
}

/**
 * Writes what is still buffered when the process exits, whatever makes it exit, and keeps a lost
 * log from stopping the service: when stdout's reader goes away (a pipe into a process that
 * ended, a log collector restarting), writing to it fails with EPIPE on every line. Unhandled,
 * each failure was an uncaught exception whose own log line failed again, a loop that spun the
 * CPU and outlived SIGTERM. Instead the log is dropped from then on, said once on stderr, and the
 * service serves on. The server's entry point installs this: a module that only writes logs (the
 * CLI, a test) leaves the process's handlers alone.
 */
export function flushLogOnExit(): void {
  process.on('exit', flushLog);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (logLost) return;
    logLost = true;
    dropPending();
    process.stderr.write(
      `The log on stdout cannot be written (${error.code ?? error.message}); log lines are dropped from now on.\n`,
    );
  });
  // If stderr has lost its reader too, there is nowhere left to say anything.
  process.stderr.on('error', () => undefined);
}
