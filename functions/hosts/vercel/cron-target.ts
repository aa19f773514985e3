import { createHash, timingSafeEqual } from 'node:crypto';
import type { PassReport } from '../../app/background-work.ts';
import type { Config } from '../../config/env.ts';
import { ApiError, errorResponse } from '../../http/api-error.ts';
import { headerValue, type ApiRequest, type ApiResponse } from '../../http/types.ts';
import { logEvent, logWarning } from '../../log/log.ts';
import { fetchHandlerOver, type FetchHandler } from '../fetch/fetch-handler.ts';

/** The challenge of a refused call (RFC 9110 section 11.6.1; the Bearer scheme of RFC 6750 section 3). */
const CHALLENGE = 'Bearer realm="portfolio-cron"';

/**
 * Vercel's cron target: a GET on its path, on Vercel's clock (Vercel docs, "Cron Jobs"), with
 * `Authorization: Bearer $CRON_SECRET` when the project sets CRON_SECRET ("Securing cron jobs").
 * The path is public like every other, so the header is the only thing that tells Vercel's call
 * from a stranger's, and each pass costs database work that no quota charges: the pass runs only
 * for a call that presents the secret. Without CRON_SECRET nobody can present it, so every call
 * is refused (403 `cron_disabled`, RFC 9110 section 15.5.4: no credentials would help) and the
 * instance logs the first; with it, a call without the secret or with another one gets 401
 * `cron_unauthorized` with a Bearer challenge (RFC 9110 section 15.5.2). The answers carry the
 * Error shape, the request id and the security headers, as every answer of the service does.
 */
export function cronTarget(config: Config, secret: string | null, runPass: () => Promise<PassReport>): FetchHandler {
  const expected = secret === null ? null : digest(secret);
  let unsetLogged = false;

  const handle = async (request: ApiRequest): Promise<ApiResponse> => {
    if (expected === null) {
      if (!unsetLogged) {
        unsetLogged = true;
        logWarning(
          'The cron target refuses every call: CRON_SECRET is unset. Set it in the project (a random text of at least 16 characters) and deploy again; Vercel then sends it with each scheduled call.',
          { variable: 'CRON_SECRET' },
        );
      }
      return refusal(
        new ApiError('cron_disabled', 'The scheduled pass is turned off: this deployment has no CRON_SECRET.', {
          hint: "Set CRON_SECRET in the project's environment variables and deploy again; Vercel then sends it with each scheduled call.",
        }),
        request,
      );
    }
    if (!presents(headerValue(request, 'authorization'), expected))
      return refusal(
        new ApiError('cron_unauthorized', 'Only the deployment’s own cron call runs the scheduled pass.', {
          hint: 'Send Authorization: Bearer with the value of CRON_SECRET, as Vercel Cron Jobs do.',
          headers: { 'www-authenticate': CHALLENGE },
        }),
        request,
      );
    if (request.method !== 'GET')
      return refusal(
        new ApiError('method_not_allowed', 'The cron target takes GET only.', { headers: { allow: 'GET' } }),
        request,
      );
    const report = await runPass();
    logEvent('scheduled pass', { ...report });
    return { status: 204, headers: { 'cache-control': 'no-store' }, body: null };
  };

  return fetchHandlerOver({ config, handle });
}

function refusal(error: ApiError, request: ApiRequest): ApiResponse {
  return errorResponse(error, request.requestId);
}

/** A fixed-length digest, so the comparison below takes the same time whatever the lengths. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Whether `authorization` is `Bearer <secret>` (the scheme in any case, RFC 9110 section 11.1),
 * the credentials compared in constant time.
 */
function presents(authorization: string | undefined, expected: Buffer): boolean {
  const space = authorization?.indexOf(' ') ?? -1;
  if (authorization === undefined || space === -1) return false;
  const scheme = authorization.slice(0, space).toLowerCase();
  return timingSafeEqual(digest(authorization.slice(space + 1)), expected) && scheme === 'bearer';
}
