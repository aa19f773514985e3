import path from 'node:path';
import { loadConfig } from '../../functions/config/env.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { startServer } from '../../functions/hosts/node/start-server.ts';
import { engineEnv } from './engines.ts';
import { freshDataDir, ROOT } from './server.ts';

/** The production service listening in this process. */
export interface InProcessService {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the production service in process on a free port (functions/hosts/node/start-server.ts):
 * the real node:http server with its sockets, headers and client addresses, without a child
 * process. For what the entry itself does (signals, exit codes, the build check, the log on
 * stdout) tests start the compiled entry instead (./server.ts). The access log is off, so the
 * test's own output stays readable.
 */
export async function startService(
  env: Record<string, string> = {},
  dataDir = freshDataDir(),
): Promise<InProcessService> {
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ACCESS_LOG: 'false',
    ...(await engineEnv(dataDir)),
    ...env,
  });
  const service = await startServer(config, loadBuild(path.join(ROOT, 'dist')));
  return { baseUrl: service.url, dataDir, stop: service.close };
}
