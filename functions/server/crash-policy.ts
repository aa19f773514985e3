import { requestScope } from '../http/request-scope.ts';
import { logError } from '../log.ts';

/**
 * What the process does with an error nobody handled. Each one is logged at level error with
 * its stack; when it came from work a request started (see http/request-scope.ts), the line
 * carries that request's ids, else `requestId` is "process".
 *
 * - A rejected promise nobody awaited (`unhandledRejection`) is logged and the process keeps
 *   serving. Such a promise is background work that lacked a catch: the code that started it
 *   has run to its end, and durable state only changes in SQLite transactions, which either
 *   committed or did not. Exiting, node's default, would turn the missing catch into a crash
 *   loop, since every restart meets the same pending work again.
 * - An exception that reached the event loop (`uncaughtException`) left some synchronous code
 *   half done, and what it held in memory can no longer be trusted (node's documentation says
 *   the same). The process stops accepting connections, lets the requests in flight finish
 *   (SQLite kept the durable state consistent), and exits with 1, for the supervisor to start
 *   a clean one.
 */
export function installCrashPolicy(drainAndExit: (reason: string, exitCode: number) => void): void {
  process.on('unhandledRejection', (reason) => {
    logError('process', reason, { ...requestScope.getStore(), event: 'unhandledRejection', exits: false });
  });
  process.on('uncaughtException', (error) => {
    logError('process', error, { ...requestScope.getStore(), event: 'uncaughtException', exits: true });
    drainAndExit('uncaughtException', 1);
  });
}
