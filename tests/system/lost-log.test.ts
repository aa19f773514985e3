import { describe, expect, it } from 'vitest';
import { startServer } from '../support/server.ts';
import { waitFor } from '../support/webhook.ts';

const NOTICE = 'The log on stdout cannot be written (EPIPE)';

/**
 * The log's reader goes away: the server's stdout is a pipe into a process that ends (`| head`,
 * a log collector restarting). Writing a line then fails with EPIPE, every time; before the fix
 * each failure was an uncaught exception whose own log line failed again, a loop that spun the
 * CPU and outlived SIGTERM. The service must serve on, say once on stderr that its log is lost,
 * and still stop cleanly.
 */
describe('a server whose log reader went away', () => {
  it('serves on, says so once on stderr, and stops on SIGTERM with exit code 0', async () => {
    const server = await startServer();
    // Close our end of the pipe: the server's next log line meets a reader that is gone.
    server.process.stdout!.destroy();
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${server.baseUrl}/api/v1/projects?limit=1`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    // The batched access log meets the broken pipe at its next flush, however late a busy machine runs it.
    await waitFor(() => server.stderr().includes(NOTICE), 'the notice of the broken log');
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(0);
    // It drained and exited by itself, not at the shutdown deadline (functions/hosts/node/main.ts).
    expect(server.stderr()).not.toContain('Draining did not finish');
    expect(server.stderr().split(NOTICE)).toHaveLength(2);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  });
});
