import { describe, expect, it } from 'vitest';
import { useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, syncRequest } from './support/queue-test-env.js';

describe('sync queue: an Application’s own revisionHistoryLimit', () => {
  const t = useQueueFixture();

  it('keeps spec.revisionHistoryLimit entries for that Application (at least 1), the default for the others', async () => {
    const limits: Record<string, number> = { web: 2, none: 0 };
    t.startWorker({ steps: 1, stepMs: 1 }, { historyLimit: 50, historyLimitOf: (app) => limits[app] });
    for (let i = 0; i < 3; i++) {
      const jobs = await Promise.all(
        ['web', 'none', 'api'].map((app) => t.queue.enqueueSync(syncRequest(app))),
      );
      await jobsFinished(
        t.queue,
        jobs.map((j) => j.jobId),
        20_000,
      );
    }

    expect((await t.queue.history('web', 10)).map((h) => h.id)).toEqual([3, 2]);
    expect((await t.queue.history('none', 10)).map((h) => h.id)).toEqual([3]);
    expect((await t.queue.history('api', 10)).map((h) => h.id)).toEqual([3, 2, 1]);
  });
});
