import { describe, expect, it } from 'vitest';
import { startServer } from '../support/server.ts';

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
    // Give the batched access log its flush (every 50 ms), so the broken pipe has been met.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    const started = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    const notices = server.stderr().match(/The log on stdout cannot be written \(EPIPE\)/g) ?? [];
    expect(notices).toHaveLength(1);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  });
});
