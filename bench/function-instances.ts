import path from 'node:path';
import { buildDataOf, type BuildData } from '../functions/hosts/fetch/build-data.ts';
import { createFetchHandler, type ServiceFunction } from '../functions/hosts/fetch/create-fetch-handler.ts';
import { loadBuild } from '../functions/hosts/static/build-output.ts';
import { ROOT } from './processes.ts';

/**
 * Function instances in the bench's processes: each a service of its own from createFetchHandler
 * on the build in dist/, as a host makes one per instance, and the requests sent to them.
 */
let build: BuildData | undefined;

/** Reads the build from dist/ now, which every instance then shares (a host has it in the bundle's module). */
export function loadBuildData(): void {
  build ??= buildDataOf(loadBuild(path.join(ROOT, 'dist')));
}

/** A new instance with `env` (DATABASE_URL, REDIS_URL, quotas), on the build whatever values it was made for. */
export function functionInstance(env: Record<string, string>): ServiceFunction {
  loadBuildData();
  return createFetchHandler({ ALLOW_BUILD_MISMATCH: 'true', ACCESS_LOG: 'false', ...env }, build as BuildData);
}

/** Where requests go when no server is asked over HTTP (an instance called in process). */
const IN_PROCESS = 'http://localhost:4321';

export const readRequest = (baseUrl = IN_PROCESS) => new Request(`${baseUrl}/api/v1/projects`);

/** A contact post with an Idempotency-Key of its own, to an instance (`fetch(request)`) or a server at `baseUrl`. */
export const contactRequest = (message: string, baseUrl = IN_PROCESS) =>
  new Request(`${baseUrl}/api/v1/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ name: 'Bench', email: 'bench@example.com', message }),
  });
