/**
 * The rollout driver on the real Redis (chain store) and a real BullMQ queue (no worker: the test plays the
 * worker's hooks): which Applications are queued when, at most maxUpdate of a step at a time, each once however
 * often a hook runs, the next step only after every Application of the earlier ones is Healthy, approvals asked
 * instead of queueing, and one summary.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createRolloutDriver,
  type RolloutSummary,
  redisAppOfAppsChainStore,
  rolloutJobId,
} from '../../../src/app-of-apps/index.js';
import type { OperationState } from '../../../src/domain/index.js';
import type { RolloutChain, SyncRequest } from '../../../src/queue/index.js';
import { createSyncQueue } from '../../../src/queue/sync-queue.js';
import { deleteKeys, REDIS_URL, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const redis = testRedis();
const prefix = uniquePrefix();
const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
const silent = { info() {}, warn() {} };
const initiator = { userId: 'U0PAT', userName: 'pat' };
afterAll(async () => {
  await queue.close();
  await deleteKeys(redis, prefix);
  await redis.quit();
});

function harness(options: { approvals?: 'pending' | 'refused'; missing?: string[] } = {}) {
  const summaries: RolloutSummary[] = [];
  const steps: number[] = [];
  const asked: string[] = [];
  const driver = createRolloutDriver({
    queue,
    store: redisAppOfAppsChainStore(redis, prefix),
    registered: (name) => (options.missing?.includes(name) ? undefined : { syncPolicy: {} }),
    ...(options.approvals
      ? {
          approvals: {
            async request(request: SyncRequest) {
              asked.push(request.application);
              return options.approvals === 'refused'
                ? { kind: 'refused' as const, reason: 'production is frozen' }
                : { kind: 'pending' as const };
            },
          },
        }
      : {}),
    announcer: {
      async stepStarting(_target, step) {
        steps.push(step.number);
      },
      async rolloutEnded(_target, summary) {
        summaries.push(summary);
      },
      async approvalPlaceholder(target) {
        return { channel: target.channel, ts: `${Date.now() / 1000}` };
      },
    },
    logger: silent,
  });
  return { driver, summaries, steps, asked };
}

function chainOf(steps: RolloutChain['steps'], approval: string[] = []): RolloutChain {
  return {
    applicationSet: 'shop',
    rolloutId: randomUUID(),
    target: { channel: 'C0ROLLOUT', threadTs: '1.000' },
    steps,
    approval,
    unassigned: ['shop-other'],
  };
}

/** The rollout's Applications queued so far (waiting jobs, by job id). */
async function queued(chain: RolloutChain): Promise<string[]> {
  const names = chain.steps.flatMap((s) => s.applications);
  const found: string[] = [];
  for (const name of names) {
    const job = await queue.jobStatus(rolloutJobId(chain.rolloutId, name));
    if (job) found.push(name);
  }
  return found;
}

function ended(phase: 'Succeeded' | 'Failed', health: 'Healthy' | 'Degraded' = 'Healthy'): OperationState {
  const now = new Date().toISOString();
  return {
    phase,
    message: phase === 'Failed' ? 'one or more objects failed to apply' : 'successfully synced',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    syncResult: { revision: 'abc', resources: [] },
    startedAt: now,
    finishedAt: now,
    health: { status: health },
  } as unknown as OperationState;
}

const request = (chain: RolloutChain, application: string): SyncRequest => ({
  application,
  operation: { prune: false, dryRun: false, syncOptions: [] },
  initiator,
  target: undefined,
  requestKey: `rollout:${chain.rolloutId}:${application}`,
  rollout: chain,
});

describe('rollout driver (real Redis and BullMQ queue)', () => {
  it('queues maxUpdate Applications of a step at a time, each once, and the next step when all are Healthy', async () => {
    const h = harness();
    const chain = chainOf([
      { applications: ['a', 'b', 'c'], atOnce: 2, maxUpdate: '50%' },
      { applications: ['d'], atOnce: 1 },
    ]);

    await h.driver.start(chain, initiator);
    await h.driver.start(chain, initiator); // a repeated start queues nothing twice
    expect(await queued(chain)).toEqual(['a', 'b']);
    expect(h.steps).toEqual([1]);

    await h.driver.lifecycle.started!({ jobId: 'j', request: request(chain, 'a') });
    await h.driver.lifecycle.ended!({
      jobId: 'j',
      request: request(chain, 'a'),
      state: ended('Succeeded'),
      cancelled: false,
    });
    expect(await queued(chain)).toEqual(['a', 'b', 'c']);

    // b and c end at the same moment on two workers: d is queued once, the step line posted once.
    await Promise.all(
      ['b', 'c'].map((n) =>
        h.driver.lifecycle.ended!({
          jobId: n,
          request: request(chain, n),
          state: ended('Succeeded'),
          cancelled: false,
        }),
      ),
    );
    expect(await queued(chain)).toEqual(['a', 'b', 'c', 'd']);
    expect(h.steps).toEqual([1, 2]);
    expect((await queue.allStatus()).filter((s) => s.application === 'd')).toHaveLength(1);

    await h.driver.lifecycle.ended!({
      jobId: 'd',
      request: request(chain, 'd'),
      state: ended('Succeeded'),
      cancelled: false,
    });
    await h.driver.lifecycle.ended!({
      jobId: 'd',
      request: request(chain, 'd'),
      state: ended('Succeeded'),
      cancelled: false,
    });
    expect(h.summaries).toEqual([
      {
        applicationSet: 'shop',
        total: 4,
        healthy: ['a', 'b', 'c', 'd'],
        notSynced: [],
        unassigned: ['shop-other'],
      },
    ]);
  });

  it('stops at an Application that ends Degraded: nothing more is queued, the summary gives the reason', async () => {
    const h = harness();
    const chain = chainOf([
      { applications: ['a', 'b'], atOnce: 1 },
      { applications: ['c'], atOnce: 1 },
    ]);

    await h.driver.start(chain, initiator);
    await h.driver.lifecycle.ended!({
      jobId: 'a',
      request: request(chain, 'a'),
      state: ended('Succeeded', 'Degraded'),
      cancelled: false,
    });

    expect(await queued(chain)).toEqual(['a']);
    expect(h.summaries).toEqual([
      {
        applicationSet: 'shop',
        total: 3,
        healthy: [],
        stopped: { step: 1, application: 'a', message: 'a is Degraded after its sync' },
        notSynced: ['b', 'c'],
        unassigned: ['shop-other'],
      },
    ]);
  });

  it('asks for approval instead of queueing; a refusal stops the rollout with its reason', async () => {
    const pending = harness({ approvals: 'pending' });
    const chain = chainOf([{ applications: ['prod'], atOnce: 1 }], ['prod']);
    await pending.driver.start(chain, initiator);
    expect(pending.asked).toEqual(['prod']);
    expect(await queued(chain)).toEqual([]);
    expect(pending.summaries).toEqual([]);

    const refused = harness({ approvals: 'refused' });
    const other = chainOf([{ applications: ['prod'], atOnce: 1 }], ['prod']);
    await refused.driver.start(other, initiator);
    expect(refused.summaries[0]?.stopped).toEqual({
      step: 1,
      application: 'prod',
      message: 'prod sync Failed: prod refused: production is frozen',
    });
  });

  it('a step of maxUpdate 0 and an Application no longer generated stop the rollout, saying why', async () => {
    const zero = harness();
    const chain = chainOf([{ applications: ['a'], atOnce: 0, maxUpdate: 0 }]);
    await zero.driver.start(chain, initiator);
    expect(zero.summaries[0]?.stopped?.message).toBe(
      'step 1 has maxUpdate 0: none of its Applications (a) is updated, and the later steps wait for them (as in Argo CD)',
    );

    const gone = harness({ missing: ['a'] });
    const vanished = chainOf([{ applications: ['a', 'b'], atOnce: 2 }]);
    await gone.driver.start(vanished, initiator);
    expect(gone.summaries[0]?.stopped?.message).toBe(
      'a sync Failed: a is no longer generated by ApplicationSet shop',
    );
  });
});
