import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration files each start their own server; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
