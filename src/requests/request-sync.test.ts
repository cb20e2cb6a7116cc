import { describe, expect, it } from 'vitest';
import type { SyncRequest } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';
import { requestSync } from './index.js';

const request: SyncRequest = {
  application: 'guestbook',
  operation: { prune: false, dryRun: false, syncOptions: [] },
  initiator: { userId: 'U0MALLORY', userName: 'mallory' },
  target: undefined,
  requestKey: 'probe',
};

/** The producer: reaching it at all fails the test (nothing may be queued). */
const queue: EnqueuePort = {
  enqueueSync: () => Promise.reject(new Error('enqueueSync was reached')),
};

describe("requestSync, src/requests' public face, takes a person's request only", () => {
  it("refuses the reviewer's probe (a Slack action asking for an App of Apps child) before queueing", async () => {
    // @ts-expect-error the public requestSync takes origin `person` only
    const probe = requestSync({ queue }, { origin: 'app-of-apps-child', request, jobId: 'aoa-probe' });

    await expect(probe).rejects.toThrow(
      "requestSync takes a person's request only, not origin 'app-of-apps-child'",
    );
  });

  it('refuses origins self-heal and approved the same way', async () => {
    // @ts-expect-error the public requestSync takes origin `person` only
    const selfHeal = requestSync({ queue }, { origin: 'self-heal', request, reason: 'probe' });
    // @ts-expect-error the public requestSync takes origin `person` only
    const approved = requestSync({ queue }, { origin: 'approved', record: {} });

    await expect(selfHeal).rejects.toThrow("not origin 'self-heal'");
    await expect(approved).rejects.toThrow("not origin 'approved'");
  });
});
