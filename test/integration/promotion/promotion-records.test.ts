/**
 * The stage records of promotion pipelines on the real Redis: the worker's lifecycle hook records each stage's
 * ended sync, the verifier's looks turn a stage Healthy long enough into a verified revision (once, however often
 * it is looked at), a bad look restarts the clock, a failed sync or hook is never verified, and promotions pin.
 * `now` is a counter the test moves (minutes from an arbitrary start), never a calendar time.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthStatus, OperationState } from '../../../src/domain/index.js';
import {
  type PromotionStore,
  pinnedRevision,
  planPromotion,
  promotionKeys,
  promotionLifecycle,
  redisPromotionStore,
  type StageObservation,
  startVerifier,
} from '../../../src/promotion/index.js';
import type { PromotionRef, SyncJob } from '../../../src/queue/index.js';
import { parseSettings } from '../../../src/settings/index.js';
import { deleteKeys, syncRequest, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const settings = parseSettings(
  [
    'promotion:',
    '  pipelines:',
    '    guestbook:',
    '      stages: [gb-dev, gb-staging, gb-prod]',
    '      verify: { healthyForMinutes: 30, postSyncHook: Job/smoke-test }',
  ].join('\n'),
  '/etc/wavesync/wavesync.yaml',
);
const SHA1 = 'a'.repeat(40);
const SHA2 = 'b'.repeat(40);
const MIN = 60_000;

let redis: Redis;
let prefix: string;
let store: PromotionStore;
let clock = 0;
const now = () => clock;

beforeAll(() => {
  redis = testRedis();
  prefix = uniquePrefix();
  store = redisPromotionStore(redis, prefix);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

function ended(
  revision: string,
  options: {
    phase?: OperationState['phase'];
    health?: HealthStatus;
    hook?: 'Succeeded' | 'Failed' | 'none';
  } = {},
): OperationState {
  const hook = options.hook ?? 'Succeeded';
  return {
    operation: { prune: false, dryRun: false, syncOptions: [] },
    phase: options.phase ?? 'Succeeded',
    message: '',
    startedAt: new Date(0).toISOString(),
    health: options.health ?? { status: 'Healthy' },
    syncResult: {
      revision,
      resources:
        hook === 'none'
          ? []
          : [
              {
                group: 'batch',
                version: 'v1',
                kind: 'Job',
                namespace: 'gb',
                name: 'smoke-test-x1y2z',
                syncPhase: 'PostSync',
                wave: 0,
                message: '',
                hookType: 'PostSync',
                hookPhase: hook,
              },
            ],
    },
  };
}

const lifecycle = () => promotionLifecycle({ settings, store, now });
async function end(app: string, jobId: string, state: OperationState, request: Partial<SyncJob> = {}) {
  await lifecycle().ended?.({ jobId, request: syncRequest(app, request), state, cancelled: false });
}
function verifier(seen: () => StageObservation) {
  return startVerifier({
    settings,
    store,
    observe: async () => seen(),
    now,
    logger: { info() {}, warn() {} },
  });
}
const healthy: StageObservation = { health: { status: 'Healthy' }, outOfSync: 0 };

describe('test/integration/promotion/promotion-records', () => {
  it('when a stage syncs Healthy with its hook passed and stays Healthy for 30 min, then the revision is verified once, with its time', async () => {
    clock = 1_000 * MIN;
    await end('gb-staging', 'job-1', ended(SHA1));
    expect(await store.stage('gb-staging')).toMatchObject({
      status: 'verifying',
      revision: SHA1,
      healthySince: clock,
      hook: 'PostSync Job/smoke-test passed',
    });
    // Ending again (a resumed job) changes nothing.
    clock += MIN;
    await end('gb-staging', 'job-1', ended(SHA1));
    expect((await store.stage('gb-staging'))?.syncedAt).toBe(1_000 * MIN);

    const v = verifier(() => healthy);
    clock = 1_020 * MIN;
    await v.tick();
    expect((await store.stage('gb-staging'))?.status).toBe('verifying');
    const plan = await planPromotion(
      { settings, store, inEnvironment: () => true, now },
      { name: 'guestbook', to: 'gb-prod' },
    );
    expect(plan).toEqual({
      ok: false,
      problem: expect.stringContaining(
        'aaaaaaa is not verified in gb-staging yet: Healthy for 20 min of 30 min (about 10 min to go).',
      ),
    });
    clock = 1_031 * MIN;
    await v.tick();
    await v.tick();
    await v.close();
    expect(await store.stage('gb-staging')).toMatchObject({
      status: 'verified',
      verifiedAt: 1_031 * MIN,
      healthyForMs: 31 * MIN,
    });
    expect(await store.verified('gb-staging')).toEqual([
      {
        revision: SHA1,
        stage: 'gb-staging',
        jobId: 'job-1',
        syncedAt: 1_000 * MIN,
        verifiedAt: 1_031 * MIN,
        healthyForMs: 31 * MIN,
        hook: 'PostSync Job/smoke-test passed',
      },
    ]);
    // Kept for a duration after the last write, not until an instant.
    const ttl = await redis.pttl(promotionKeys(prefix).verified('gb-staging'));
    expect(ttl).toBeGreaterThan(89 * 24 * 60 * MIN);
  });

  it('when the stage is seen OutOfSync or not Healthy, then the clock restarts; a failed sync, Degraded end or failed hook is never verified', async () => {
    clock = 2_000 * MIN;
    await end('gb-dev', 'job-2', ended(SHA2));
    let seen: StageObservation = { health: { status: 'Healthy' }, outOfSync: 2 };
    const v = verifier(() => seen);
    clock = 2_010 * MIN;
    await v.tick();
    expect(await store.stage('gb-dev')).toMatchObject({
      status: 'verifying',
      problem: 'OutOfSync: 2 resource(s) differ',
    });
    expect((await store.stage('gb-dev'))?.healthySince).toBeUndefined();
    seen = healthy;
    clock = 2_020 * MIN;
    await v.tick();
    clock = 2_045 * MIN;
    await v.tick();
    expect((await store.stage('gb-dev'))?.status).toBe('verifying');
    clock = 2_050 * MIN;
    await v.tick();
    await v.close();
    expect(await store.stage('gb-dev')).toMatchObject({ status: 'verified', healthyForMs: 30 * MIN });

    await end('gb-dev', 'job-3', ended(SHA1, { hook: 'Failed' }));
    expect(await store.stage('gb-dev')).toMatchObject({
      status: 'failed',
      problem: 'PostSync Job/smoke-test ended Failed',
    });
    await end('gb-dev', 'job-4', ended(SHA1, { hook: 'none' }));
    expect((await store.stage('gb-dev'))?.problem).toBe('PostSync Job/smoke-test did not run in the sync');
    await end(
      'gb-dev',
      'job-5',
      ended(SHA1, { health: { status: 'Degraded', message: 'CrashLoopBackOff' } }),
    );
    expect((await store.stage('gb-dev'))?.problem).toBe('Degraded: CrashLoopBackOff');
    await end('gb-dev', 'job-6', ended(SHA1, { phase: 'Failed' }));
    expect((await store.stage('gb-dev'))?.problem).toBe('the sync ended Failed');
    expect((await store.verified('gb-dev')).map((v) => v.revision)).toEqual([SHA2]);
    const refused = await planPromotion(
      { settings, store, inEnvironment: () => true, now },
      { name: 'gb-dev', to: 'gb-staging' },
    );
    expect(refused).toMatchObject({
      ok: false,
      problem: expect.stringContaining('aaaaaaa was not verified in gb-dev: the sync ended Failed.'),
    });
  });

  it('when a promotion Succeeds, then the stage is pinned at its revision; a self-heal or a sync of the pinned revision keeps the pin, a person’s sync of another releases it', async () => {
    const promotion: PromotionRef = {
      pipeline: 'guestbook',
      from: 'gb-staging',
      revision: SHA1,
      verified: 'x',
    };
    await end('gb-prod', 'job-7', ended(SHA1), {
      promotion,
      operation: { revision: SHA1, prune: false, dryRun: false, syncOptions: [] },
    });
    expect(await store.pin('gb-prod')).toMatchObject({
      revision: SHA1,
      from: 'gb-staging',
      pipeline: 'guestbook',
      jobId: 'job-7',
    });
    expect(await pinnedRevision(store, 'gb-prod')).toBe(SHA1);
    expect((await store.stage('gb-prod'))?.promotion).toEqual(promotion);
    await end('gb-prod', 'job-8', ended(SHA1), {
      initiator: { userId: 'wavesync (selfHeal)', userName: 'wavesync (selfHeal)' },
    });
    expect(await pinnedRevision(store, 'gb-prod')).toBe(SHA1);
    // A person's sync of exactly the pinned revision (a drift notice's Sync button) keeps it.
    await end('gb-prod', 'job-8b', ended(SHA1));
    expect(await pinnedRevision(store, 'gb-prod')).toBe(SHA1);
    await end('gb-prod', 'job-9', ended(SHA2, { phase: 'Failed' }));
    expect(await pinnedRevision(store, 'gb-prod')).toBe(SHA1);
    await end('gb-prod', 'job-10', ended(SHA2));
    expect(await pinnedRevision(store, 'gb-prod')).toBeUndefined();
  });
});
