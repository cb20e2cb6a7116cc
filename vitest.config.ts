import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Files run side by side, three at a time, across all three projects. Most integration and end-to-end files wait
 * (on Redis, on real processes, on a simulated cluster's clock) far more than they compute: run one at a time, the
 * suite took 16 min on 2 cores with under 10 min of CPU, unit, end-to-end and integration one after another
 * (vitest puts files of `fileParallelism: false` projects into one sequential group). Each file keeps to its own
 * Redis key prefix, ports and temporary folders, so they do not meet. BENCHMARKS.md "Test suite" has the figures.
 */
const maxWorkers = 3;

/**
 * The command line's manifest parse cache (src/cli/manifest-parse-cache.ts): a folder of this run's own, removed at
 * its end, so a test never meets an entry written by another checkout or before an edit of the parse rules.
 */
if (process.env.WAVESYNC_CACHE_DIR === undefined) {
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'wavesync-test-cache-'));
  process.env.WAVESYNC_CACHE_DIR = cacheDir;
  process.on('exit', () => rmSync(cacheDir, { recursive: true, force: true }));
}

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
          maxWorkers,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 30_000,
          maxWorkers,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxWorkers,
        },
      },
    ],
  },
});
