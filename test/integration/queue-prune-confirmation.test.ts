import { describe, expect, it } from 'vitest';
import type { OperationState } from '../../src/domain/index.js';
import { recordedOperation } from '../../src/queue/sync-request.js';
import type { SyncRunner } from '../../src/queue/sync-runner.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, syncRequest, waitFor } from './support/queue-test-env.js';

/**
 * A runner that waits, as the engine does for Prune=confirm, until its context reports a confirmation at or after
 * the operation's start, and records what it saw while waiting.
 */
function waitingForConfirmation(seen: (string | undefined)[]): SyncRunner {
  return async (ctx) => {
    const startedAt = new Date().toISOString();
    for (;;) {
      const at = await ctx.pruneConfirmation();
      seen.push(at);
      if (at !== undefined && at >= startedAt) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const state: OperationState = {
      operation: recordedOperation(ctx.request),
      phase: 'Succeeded',
      message: 'successfully synced (all tasks run)',
      syncResult: { revision: 'r', resources: [] },
      startedAt,
      finishedAt: new Date().toISOString(),
    };
    await ctx.persist(state);
    return state;
  };
}

describe('pruning confirmations through Redis: the bot writes, the worker running the job reads', () => {
  const t = useQueueFixture();

  it('a running job sees a confirmation given from another client and finishes; other applications see none', async () => {
    const seen: (string | undefined)[] = [];
    t.startWorker({ steps: 1, stepMs: 1 }, { runner: waitingForConfirmation(seen) });
    const { jobId } = await t.queue.enqueueSync(syncRequest('web', { syncOptions: ['Prune=confirm'] }));
    await waitFor(async () => seen.length >= 2, 15_000, 'the runner to ask twice');
    expect(seen.every((at) => at === undefined)).toBe(true);

    const at = await t.queue.confirmPrune('web', { userId: 'U0SAM', userName: 'sam' });

    const [status] = await jobsFinished(t.queue, [jobId]);
    expect(status?.state).toBe('completed');
    expect(seen.at(-1)).toBe(at);
    expect(await t.queue.pruneConfirmedAt('web')).toBe(at);
    expect(await t.queue.pruneConfirmedAt('api')).toBeUndefined();
  });
});
