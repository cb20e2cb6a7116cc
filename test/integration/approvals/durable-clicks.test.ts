/**
 * Acknowledge only what is durable, for clicks, on a real Sentinel set (a master, one replica, three sentinels;
 * test/support/redis-topologies.ts): an Approve click's decision (and the job it queues) must be on the replica
 * before Slack shows it. The replica is SIGSTOPped to make it lag deterministically — it neither applies nor
 * acknowledges the replication stream — and the master is SIGKILLed after the click: what Slack shows must be what
 * the promoted replica holds.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { APPROVE_ACTION_ID, decodeApprovalButtonValue } from '../../../src/environments/index.js';
import { createRedisClient } from '../../../src/queue/store/redis-connections.js';
import { redisServerMissing, type SentinelSet, startSentinelSet } from '../../support/redis-topologies.js';
import { waitFor } from '../support/queue-test-env.js';
import { DEPLOYS, type FlowEnv, startFlowEnv } from './approval-flow-env.js';

describe.skipIf(redisServerMissing())('durable clicks on Sentinel (real redis-server)', () => {
  let set: SentinelSet | undefined;
  let env: FlowEnv | undefined;
  let redis: Redis | undefined;

  beforeAll(async () => {
    // down-after 1 s: the kill scenario needs a failover; the pauses below stay shorter than that.
    set = await startSentinelSet({ replicas: 1, downAfterMs: 1000 });
  }, 30_000);
  afterEach(async () => {
    set?.resumeReplicas();
    try {
      await env?.close();
    } finally {
      redis?.disconnect();
      env = undefined;
      redis = undefined;
    }
  });
  afterAll(async () => {
    await set?.stop();
  });

  async function start(): Promise<FlowEnv> {
    const connection = loadConfig(set!.env).redis;
    redis = createRedisClient(connection, { maxRetriesPerRequest: 2 }) as Redis;
    redis.on('error', () => undefined);
    env = await startFlowEnv(redis, { connection });
    return env;
  }

  /** The request's status as the Redis on `port` holds it (the master, or the replica after a failover). */
  async function statusOn(port: number, prefix: string, requestId: string): Promise<string | null> {
    const direct = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    try {
      return await direct.hget(`${prefix}:approvals:request:${requestId}`, 'status');
    } finally {
      direct.disconnect();
    }
  }

  /** A pending approval request on the Sentinel set; `updates()` counts its message's updates since. */
  async function requestOnSentinel() {
    const e = await start();
    const posted = await e.requestApproval('guestbook');
    const { requestId } = decodeApprovalButtonValue(posted.value)!;
    const masterPort = await set!.currentMaster();
    const before = e.slack.message(DEPLOYS, posted.ts)?.updates ?? 0;
    const updates = () => (e.slack.message(DEPLOYS, posted.ts)?.updates ?? 0) - before;
    return { e, posted, requestId, masterPort, updates };
  }

  async function dropReplicaLinks(port: number): Promise<void> {
    const direct = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    try {
      await direct.call('CLIENT', 'KILL', 'TYPE', 'replica');
    } finally {
      direct.disconnect();
    }
  }

  async function clickApprove(e: FlowEnv, ts: string, value: string): Promise<void> {
    const delivery = await e.bot.sendBlockAction({
      actionId: APPROVE_ACTION_ID,
      userId: 'U0SAM',
      messageTs: ts,
      value,
      channelId: DEPLOYS,
    });
    // Slack's 3 s answer comes at once, whatever the replicas do.
    expect(delivery.status).toBe(200);
  }

  it('when the replica confirms late, then the approval message shows "approved" only after the replica has the decision, and the sync is queued', async () => {
    const { e, posted, requestId, masterPort, updates } = await requestOnSentinel();

    set!.pauseReplicas();
    await clickApprove(e, posted.ts, posted.value);
    // The decision reached the master; the replica has not acknowledged it.
    await waitFor(
      async () => (await statusOn(masterPort, e.prefix, requestId)) === 'approved',
      5000,
      'decision',
    );
    // Lag a little longer than the flow needs to show it (an audit write and one Slack call), well inside WAIT's 1 s.
    await new Promise((r) => setTimeout(r, 300));
    const updatesWhileLagging = updates();
    set!.resumeReplicas();

    await e.slack.waitFor(() => (updates() > 0 ? true : undefined));
    expect(updatesWhileLagging).toBe(0);
    const record = await waitFor(async () => (await e.store.get(requestId))?.jobId && e.store.get(requestId));
    expect(record).toMatchObject({ status: 'approved', jobId: expect.any(String) });
  });

  it('when no replica confirms the click and the master then dies, then the clicker was told it was not recorded, the message never showed "approved", and the promoted replica agrees', async () => {
    const { e, posted, requestId, masterPort, updates } = await requestOnSentinel();
    const ephemerals = () => e.slack.calls('chat.postEphemeral').filter((c) => c.args.user === 'U0SAM');

    // The replica lags for good: stopped, and its link dropped by the master, so nothing of the click reaches it
    // (a stopped replica with its link up would still find the click in its socket buffer once resumed).
    set!.pauseReplicas();
    await dropReplicaLinks(masterPort);
    await clickApprove(e, posted.ts, posted.value);
    // Whichever comes first: Slack showing the approval (the defect) or the clicker's refusal (the WAIT timed out).
    await e.slack.waitFor(() => (ephemerals().length > 0 || updates() > 0 ? true : undefined));
    expect(updates()).toBe(0);
    expect(ephemerals().at(-1)?.args.text).toMatch(/could not be confirmed as stored/);
    expect(e.slack.calls('chat.postMessage').filter((c) => c.args.thread_ts === posted.ts)).toEqual([]);

    // The bot stops (nothing more is shown), then the master dies before the replica caught up: the replica is
    // promoted without the decision, and Slack still offers the buttons — what it shows is what Redis holds.
    const shownUpdates = updates();
    await e.close();
    env = undefined;
    const killed = set!.killMaster();
    set!.resumeReplicas();
    await killed;
    const promoted = await set!.currentMaster();
    expect(promoted).not.toBe(masterPort);
    expect(await statusOn(promoted, e.prefix, requestId)).toBe('pending');
    expect(shownUpdates).toBe(0);
  }, 60_000);
});
