/**
 * A process with the server's crash policy, for tests/unit/crash-policy.test.ts: it leaves a
 * promise rejected, shows it still runs, then throws from a timer.
 */
import { flushLog, logEvent } from '../../functions/log/log.ts';
import { installCrashPolicy } from '../../functions/hosts/node/crash-policy.ts';

installCrashPolicy((reason, exitCode) => {
  logEvent('draining', { reason, exitCode });
  flushLog();
  process.exit(exitCode);
});

void Promise.reject(new Error('nobody awaited this'));
setTimeout(() => {
  logEvent('still serving');
  setTimeout(() => {
    throw new Error('thrown from a timer');
  }, 10);
}, 50);
