/**
 * A process that logs as a busy server does, for tests/unit/log-batches.test.ts: access lines by
 * the thousand (some with paths beyond ASCII), a long warning between them,
 * and an exit with lines still buffered.
 */
import { flushLogOnExit, logWarning, writeAccessLine } from '../../functions/log/log.ts';

flushLogOnExit();
const line = (n: number) =>
  writeAccessLine({
    requestId: `req-${n}`,
    clientRequestId: undefined,
    clientIp: '127.0.0.1',
    method: 'GET',
    path: n % 7 === 0 ? `/projects/ångström-${n}-€-𝄞` : `/api/v1/projects/${n}`,
    status: 200,
    durationMs: 0.25,
    aborted: false,
  });
for (let n = 0; n < 1500; n++) line(n);
logWarning('a long one', { detail: 'é'.repeat(20_000) });
for (let n = 1500; n < 3000; n++) line(n);
