import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Timeouts only catch hangs; on a shared 2-core machine a test that starts servers and child
    // processes can take several times its quiet-machine duration, and must not fail for that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Integration files each start their own server; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
