/**
 * Issue 16: no Secret value reaches the worker's log. The real worker (BullMQ on Redis, the engine runner, the
 * Kubernetes API simulator through client-node) logs at `trace` into a buffer while it creates a Secret, changes
 * it, and fails to apply a bad one; neither a value nor its base64 may appear in any line.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRevisionOf } from '../../../src/applications/manifests/index.js';
import type { Application, KubeObject } from '../../../src/domain/index.js';
import { runOperation, type SourcedObject } from '../../../src/engine/index.js';
import { createLogger } from '../../../src/logger.js';
import { createSyncQueue, createSyncWorker } from '../../../src/queue/index.js';
import { createEngineSyncRunner } from '../../../src/sync-run/index.js';
import {
  deleteKeys,
  jobsFinished,
  REDIS_URL,
  syncRequest,
  testRedis,
  uniquePrefix,
} from '../../integration/support/queue-test-env.js';
import { type Harness, startHarness, TEST_OPTIONS } from '../engine/support/engine-harness.js';

const OLD_PASSWORD = 'hunter2-old-Zq81';
const NEW_PASSWORD = 'hunter2-new-Xk52';
const TOKEN = 'tok-9f3a7c1e55';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

const secret = (password: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db' },
  stringData: { DB_PASSWORD: password },
  data: { TOKEN: Buffer.from(TOKEN).toString('base64') },
  ...extra,
});

describe('the worker log', () => {
  it('holds no Secret value (nor its base64) across a create, a change and a failed apply', async () => {
    const namespace = h.freshNamespace('worker-log');
    const app: Application = {
      name: 'vault',
      namespace: 'argocd',
      project: 'default',
      source: { repoURL: '', path: 'vault' },
      destination: { server: 'https://kubernetes.default.svc', namespace },
      finalizers: [],
      labels: {},
      annotations: {},
      manifest: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'vault' },
        spec: {},
      },
      origin: 'vault.yaml:1',
    };
    const manifests: KubeObject[][] = [
      [secret(OLD_PASSWORD)],
      [secret(NEW_PASSWORD, { immutable: true })],
      // Rejected by the API server (an invalid name): the error is logged, the values must not be.
      [{ ...secret(OLD_PASSWORD), metadata: { name: 'DB_Credentials' } }],
    ];
    let run = 0;
    let log = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log += String(chunk);
        done();
      },
    });
    const root = createLogger({ level: 'trace', destination: sink });
    const prefix = uniquePrefix();
    const redis = testRedis();
    const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
    const worker = createSyncWorker({
      connection: { url: REDIS_URL },
      prefix,
      logger: root.child({ component: 'worker' }),
      runner: createEngineSyncRunner<SourcedObject, Harness['cluster']>({
        application: () => app,
        render: async () => {
          const targets = (manifests[run++] ?? []).map((object) => ({
            object,
            source: { file: 'vault/secret.yaml', line: 1 },
          }));
          return { targets, revision: contentRevisionOf(targets) };
        },
        clusterFor: () => h.cluster,
        runOperation: (input) => runOperation({ ...input, options: { ...TEST_OPTIONS, healthTimeoutMs: 0 } }),
        logger: (fields) => root.child({ component: 'worker', ...fields }),
      }),
      reporterFactory: () => ({
        report: async (event) => root.child({ component: 'reporter' }).trace({ event }, 'event'),
        close: async () => {},
      }),
    });
    try {
      const phases: (string | undefined)[] = [];
      for (let i = 0; i < manifests.length; i++) {
        const { jobId } = await queue.enqueueSync(syncRequest('vault'));
        const [status] = await jobsFinished(queue, [jobId], 60_000);
        phases.push(status?.operationState?.phase);
      }

      expect(phases).toEqual(['Succeeded', 'Succeeded', 'Failed']);
      expect(log).toContain('operation finished');
      // The log did see the Secrets: their names, the change and the API server's refusal.
      expect(log).toContain('DB_Credentials');
      expect(log).toContain('Secret');
      for (const value of [OLD_PASSWORD, NEW_PASSWORD, TOKEN]) {
        expect(log).not.toContain(value);
        expect(log).not.toContain(Buffer.from(value).toString('base64'));
      }
    } finally {
      await worker.close({ graceMs: 2000 });
      await queue.close();
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
  }, 120_000);
});
