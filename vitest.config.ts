import { defineConfig } from 'vitest/config';

// Three projects: fast unit tests beside the sources, integration tests on a real Redis, and end-to-end tests
// that run the real processes over HTTP. `npm test` runs all three.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'sim/**/*.test.ts', 'test/unit/**/*.test.ts'],
          testTimeout: 60_000, // some unit tests spawn bin/wavesync.js or kubectl: generous under a loaded machine
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 30_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
