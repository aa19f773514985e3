import type { BakedMismatch } from '../../config/baked-config.ts';
import type { Config } from '../../config/env.ts';
import { ApiError, errorResponse } from '../../http/api-error.ts';
import { logWarning } from '../../log/log.ts';
import { mismatchLine, redeployAdvice } from './built-environment.ts';
import { fetchHandlerOver, type FetchHandler } from './fetch-handler.ts';

/** How long a client is told to wait: a rebuild and a redeploy take minutes. */
const REDEPLOY_RETRY_AFTER_SECONDS = 300;

/** What a function built for other values does instead of serving (see misbuiltFunction). */
export interface MisbuiltFunction {
  fetch: FetchHandler;
  /** The refusal in one line: the variables, both values and what to do. */
  refusal: string;
}

/**
 * A function whose environment sets a baked variable to another value than its build used: its
 * pages and documents, already published, name the build's values (links, quotas), so serving
 * with its own would make the site contradict itself. It opens nothing and answers every request
 * 503 `build_mismatch` in the Error shape, the variables, both values and the way out in the
 * message and hint, with the request id and security headers as every answer has; the instance
 * logs the same once, where the host's log shows it.
 */
export function misbuiltFunction(config: Config, mismatches: readonly BakedMismatch[]): MisbuiltFunction {
  const message = `This function was built for other values than its environment sets: ${mismatchLine(mismatches)}.`;
  const hint = redeployAdvice(mismatches);
  const refusal = `${message} ${hint}`;
  logWarning(refusal, { code: 'build_mismatch', variables: mismatches.map(({ variable }) => variable) });
  const headers = { 'retry-after': String(REDEPLOY_RETRY_AFTER_SECONDS) };
  const fetch = fetchHandlerOver({
    config,
    handle: (request) =>
      Promise.resolve(errorResponse(new ApiError('build_mismatch', message, { hint, headers }), request.requestId)),
  });
  return { fetch, refusal };
}
