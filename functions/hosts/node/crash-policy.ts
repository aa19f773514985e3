import { logError } from '../../log/log.ts';

/**
 * What the process does with an error nobody handled. Each one is logged at level error with
 * its stack and `requestId: "process"`. An error on a request's own path never gets here: the
 * router and the request listener catch it and log it with the request's ids (access-log line
 * and error line share them). What does get here is background work (webhook delivery, jobs,
 * timers) whose missing catch is a bug; no request is waiting on it.
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
    logError('process', reason, { event: 'unhandledRejection', exits: false });
  });
  process.on('uncaughtException', (error) => {
    logError('process', error, { event: 'uncaughtException', exits: true });
    drainAndExit('uncaughtException', 1);
  });
}
