/**
 * A worker process for multi-process queue tests, run by `spawnWorkerProcess` through tsx. Configured by
 * environment: QUEUE_REDIS_URL (the queue's Redis), RECORD_REDIS_URL (where the recording runner writes),
 * PREFIX, STEPS, STEP_MS, CONCURRENCY, LOCK_MS. Prints `ready` once it takes jobs; exits on SIGTERM after a
 * graceful close.
 */
import { Redis } from 'ioredis';
import { closeOnSignals } from '../../../src/queue/graceful-shutdown.js';
import { createSyncWorker } from '../../../src/queue/sync-worker.js';
import { recordingReporterFactory } from './recording-reporter.js';
import { createRecordingRunner } from './recording-runner.js';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const prefix = env('PREFIX');
const record = new Redis(env('RECORD_REDIS_URL'), { maxRetriesPerRequest: null });
const lockMs = Number(env('LOCK_MS', '30000'));
const worker = createSyncWorker({
  connection: { url: env('QUEUE_REDIS_URL') },
  prefix,
  runner: createRecordingRunner({
    redis: record,
    base: prefix,
    steps: Number(env('STEPS', '2')),
    stepMs: Number(env('STEP_MS', '100')),
  }),
  reporterFactory: recordingReporterFactory(record, prefix),
  concurrency: Number(env('CONCURRENCY', '4')),
  lockDurationMs: lockMs,
  stalledIntervalMs: Math.max(200, Math.floor(lockMs / 3)),
  recheckMs: 2000,
});
closeOnSignals([worker, { close: async () => record.disconnect() }]);
await worker.waitUntilReady();
process.stdout.write('ready\n');
