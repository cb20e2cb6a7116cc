/**
 * Two workers' notifiers announcing to one channel at once stay within Slack's per-channel posting limit: their
 * pacers reserve the channel's slots in Redis (real Redis), and the fake Slack Web API answers a post over the
 * limit with 429 (the client is told to reject rate-limited calls, so a 429 is an error here, not a silent retry).
 */
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Application, SyncEvent } from '../../../src/domain/index.js';
import {
  createApprovalStore,
  createAuditLog,
  createFailureNotifier,
  redisNotificationMarks,
} from '../../../src/environments/index.js';
import { parseSettings } from '../../../src/settings/index.js';
import { createSlackApprovalMessenger } from '../../../src/slack/reporters/slack-approval-messenger.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { createSharedChannelPacer } from '../../../src/thread/redis-channel-pacer.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const INTERVAL_MS = 200;
const settings = parseSettings(
  ['environments:', '  staging:', '    subscriptions: { on-sync-succeeded: [C0DEPLOYS] }'].join('\n'),
  path.join('/etc/wavesync', 'wavesync.yaml'),
);
const app = (name: string): Application => ({
  name,
  namespace: 'argocd',
  project: 'default',
  source: { repoURL: '', path: name },
  destination: { namespace: name },
  finalizers: [],
  labels: { 'wavesync.io/environment': 'staging' },
  annotations: {},
  manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
  origin: `${name}.yaml:1`,
});

const workerRedis = [testRedis(), testRedis()];
let slack: FakeSlackApi;
let prefix: string;

beforeEach(async () => {
  prefix = uniquePrefix();
  // One post per INTERVAL_MS per channel, a burst of two (Slack tolerates short bursts; it absorbs HTTP jitter).
  slack = await FakeSlackApi.start({ postIntervalMs: INTERVAL_MS, burst: 2 });
});
afterEach(async () => {
  await slack.close();
  await deleteKeys(workerRedis[0]!, prefix);
});
afterAll(() => Promise.all(workerRedis.map((r) => r.quit())));

/** A worker's notifier: its own Redis connection, Slack client, messenger and pacer, as in start-worker. */
function workerNotifier(redis: (typeof workerRedis)[number], errors: unknown[]) {
  const client = createSlackWebClient({ botToken: slack.botToken, apiUrl: slack.apiUrl, retries: 0 });
  const pacer = createSharedChannelPacer({
    redis,
    prefix,
    intervalMs: INTERVAL_MS,
    onError: (e) => errors.push(e),
  });
  return createFailureNotifier({
    marks: redisNotificationMarks(redis, prefix),
    settings,
    findApplication: app,
    store: createApprovalStore(redis, { prefix }),
    audit: createAuditLog(redis, prefix),
    poster: createSlackApprovalMessenger(client, pacer),
    onError: (error) => errors.push(error),
  });
}

const succeeded: SyncEvent = {
  type: 'OperationCompleted',
  at: '2026-11-29T10:00:00.000Z',
  phase: 'Succeeded',
  message: 'successfully synced',
  durationMs: 10,
  state: {
    operation: { prune: false, dryRun: false, syncOptions: [] },
    phase: 'Succeeded',
    message: 'successfully synced',
    syncResult: { revision: '3f9c2e1aa', resources: [] },
    startedAt: '2026-11-29T10:00:00.000Z',
  },
};

async function sync(notifier: ReturnType<typeof workerNotifier>, application: string): Promise<void> {
  const reporter = notifier.reporterFor({
    jobId: `job-${application}`,
    request: {
      application,
      operation: { prune: false, dryRun: false, syncOptions: [] },
      initiator: { userId: 'U0PAT', userName: 'pat' },
      target: undefined,
      requestKey: `job-${application}`,
    },
  });
  await reporter.report(succeeded);
  await reporter.close();
}

describe('test/integration/thread/redis-channel-pacer', () => {
  it('when two workers announce six syncs to one channel at once, then every notice is posted and Slack rate-limits none', async () => {
    const errors: unknown[] = [];
    const workers = workerRedis.map((redis) => workerNotifier(redis, errors));
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];

    await Promise.all(names.map((name, i) => sync(workers[i % 2]!, name)));

    expect(errors).toEqual([]);
    expect(
      slack
        .channelMessages('C0DEPLOYS')
        .map((m) => m.text?.split(' ')[1])
        .sort(),
    ).toEqual(names);
  });

  it('when sync headers wait for a channel, then thread lines of any process wait until the headers are posted', async () => {
    const [a, b] = workerRedis.map((redis) => createSharedChannelPacer({ redis, prefix, intervalMs: 50 }));
    const order: string[] = [];
    const take = (what: string, acquire: () => Promise<void>) => acquire().then(() => void order.push(what));

    // A line takes the channel; then three headers ask on the other process, and a line after them yields.
    await take('line 1', () => a!.acquire('C1'));
    const headers = [1, 2, 3].map((n) => take(`header ${n}`, () => b!.acquireHeader('C1')));
    const waiting = `${prefix}:pace:C1:headers`;
    while ((await workerRedis[0]!.zcard(waiting)) < 3) await new Promise((resolve) => setTimeout(resolve, 2));
    const second = take('line 2', () => a!.acquire('C1'));
    await Promise.all([...headers, second]);

    expect(order).toEqual(['line 1', 'header 1', 'header 2', 'header 3', 'line 2']);
  });

  it('when Slack answers one process with Retry-After, then the channel is closed for the other processes too', async () => {
    const [a, b] = workerRedis.map((redis) => createSharedChannelPacer({ redis, prefix, intervalMs: 10 }));
    const started = Date.now();
    a!.block('C2', 400);
    // block() hands its Retry-After to Redis on a's own connection without waiting; b's next reservation, on another
    // connection, can reach Redis first. The closing is shared once it is in Redis: wait for that, then ask on b.
    while ((await workerRedis[1]!.get(`${prefix}:pace:C2`)) === null)
      await new Promise((resolve) => setTimeout(resolve, 2));
    await b!.acquire('C2');

    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });
});
