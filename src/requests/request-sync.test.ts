import { describe, expect, it } from 'vitest';
import type { DeletionApproval } from '../environments/index.js';
import type { SyncRequest } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';
import { NO_APPROVAL_FLOW, type PersonSyncRequest, type RequestGate, requestSync } from './index.js';
import type { GateContext } from './request-sync.js';

const request: PersonSyncRequest = {
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
    const probe = requestSync(
      { queue, gate: NO_APPROVAL_FLOW },
      // @ts-expect-error the public requestSync takes origin `person` only
      { origin: 'app-of-apps-child', request, jobId: 'aoa-probe' },
    );

    await expect(probe).rejects.toThrow(
      "requestSync takes a person's request only, not origin 'app-of-apps-child'",
    );
  });

  it('refuses origins self-heal and approved the same way', async () => {
    const selfHeal = requestSync(
      { queue, gate: NO_APPROVAL_FLOW },
      // @ts-expect-error the public requestSync takes origin `person` only
      { origin: 'self-heal', request, reason: 'probe' },
    );
    // @ts-expect-error the public requestSync takes origin `person` only
    const approved = requestSync({ queue, gate: NO_APPROVAL_FLOW }, { origin: 'approved', record: {} });

    await expect(selfHeal).rejects.toThrow("not origin 'self-heal'");
    await expect(approved).rejects.toThrow("not origin 'approved'");
  });
});

const context: GateContext = { header: { channel: 'C1', ts: '1.1' } };

/** A gate that records what it was asked and answers `answer`. */
function recordingGate(answer: 'proceed' | 'pending' | 'refused' = 'proceed') {
  const asked: { request: SyncRequest; context: GateContext }[] = [];
  const gate: RequestGate = {
    gate: async (request, ctx) => {
      asked.push({ request, context: ctx });
      return answer;
    },
  };
  return { gate, asked };
}

/** A producer that records what it queued. */
function recordingQueue() {
  const queued: SyncRequest[] = [];
  const port: EnqueuePort = {
    enqueueSync: async (req) => {
      queued.push(req);
      return { jobId: 'job-1', duplicate: false, position: 0, ahead: [] } as never;
    },
  };
  return { port, queued };
}

/** The reviewer's probe: a plain sync of guestbook carrying an App of Apps chain with its own manifests. */
const chain = {
  parent: 'root',
  parentJobId: 'fake-parent',
  gateOnHealth: false,
  index: 0,
  children: [{ name: 'guestbook', manifest: { kind: 'Application' }, origin: 'x:1', wave: 0 }],
} as unknown as NonNullable<SyncRequest['appOfApps']>;

describe("requestSync gates what it queues: the person's request as the gate saw it", () => {
  it('refuses a request carrying appOfApps before the gate, queueing nothing', async () => {
    const { gate, asked } = recordingGate();

    const probe = requestSync(
      { queue, gate },
      // @ts-expect-error a person's request carries no appOfApps (PersonSyncRequest)
      { origin: 'person', request: { ...request, appOfApps: chain }, context },
    );

    await expect(probe).rejects.toThrow("a person's request carries no appOfApps");
    expect(asked).toEqual([]);
  });

  it('refuses a request carrying a rollout before the gate, queueing nothing', async () => {
    const { gate, asked } = recordingGate();
    const rollout = {
      applicationSet: 'shop',
      rolloutId: 'r1',
      steps: [{ applications: ['guestbook'], atOnce: 1 }],
      approval: [],
      unassigned: [],
    };

    const probe = requestSync(
      { queue, gate },
      // @ts-expect-error a person's request carries no rollout (PersonSyncRequest)
      { origin: 'person', request: { ...request, rollout }, context },
    );

    await expect(probe).rejects.toThrow("a person's request carries no rollout");
    expect(asked).toEqual([]);
  });

  it('refuses a deletion without its plan (it would be gated as a sync), queueing nothing', async () => {
    const { gate, asked } = recordingGate();
    const deletion = { confirmed: [], planHash: '0'.repeat(32) };

    const probe = requestSync(
      { queue, gate },
      { origin: 'person', request: { ...request, deletion }, context },
    );

    await expect(probe).rejects.toThrow('without its plan (context.deletionPlan)');
    expect(asked).toEqual([]);
  });

  it('gates a deletion with its plan, then queues it as asked', async () => {
    const { gate, asked } = recordingGate();
    const { port, queued } = recordingQueue();
    const deletion = { confirmed: [], planHash: '0'.repeat(32) };
    const deletionPlan = { objects: [] } as unknown as DeletionApproval['plan'];

    const outcome = await requestSync(
      { queue: port, gate },
      { origin: 'person', request: { ...request, deletion }, context: { ...context, deletionPlan } },
    );

    expect(outcome.kind).toBe('queued');
    expect(asked).toEqual([{ request: { ...request, deletion }, context: { ...context, deletionPlan } }]);
    expect(queued).toEqual([{ ...request, deletion }]);
  });

  it('reads the ask once: an origin that changes after the check is still gated as a person', async () => {
    const { gate, asked } = recordingGate('refused');
    let reads = 0;
    const shifty = {
      get origin() {
        reads += 1;
        return reads === 1 ? 'person' : 'app-of-apps-child';
      },
      request,
      context,
      jobId: 'aoa-probe',
    } as unknown as Parameters<typeof requestSync>[1];

    const outcome = await requestSync({ queue, gate }, shifty);

    expect(outcome).toEqual({ kind: 'refused' });
    expect(asked).toHaveLength(1);
  });

  it('reads the request once: an appOfApps that appears after the check is not queued', async () => {
    const { gate } = recordingGate();
    const { port, queued } = recordingQueue();
    let reads = 0;
    const shifty = {
      ...request,
      get appOfApps() {
        reads += 1;
        return reads === 1 ? undefined : chain;
      },
    };

    await requestSync({ queue: port, gate }, { origin: 'person', request: shifty as never, context });

    expect(queued).toHaveLength(1);
    // What the check saw is what was queued: a plain copy, however often the worker reads it.
    expect(queued[0]?.appOfApps).toBeUndefined();
    expect(queued[0]?.appOfApps).toBeUndefined();
  });

  it('reads nested fields once too: an operation gated as a dry run is queued as a dry run', async () => {
    const { gate, asked } = recordingGate();
    const { port, queued } = recordingQueue();
    let reads = 0;
    const operation = {
      prune: false,
      syncOptions: [],
      get dryRun() {
        reads += 1;
        return reads === 1;
      },
    };

    await requestSync(
      { queue: port, gate },
      { origin: 'person', request: { ...request, operation }, context },
    );

    expect(asked[0]?.request.operation.dryRun).toBe(true);
    expect(queued[0]?.operation.dryRun).toBe(true);
  });
});

describe('requestSync needs a gate: a person is never queued unchecked by omission', () => {
  it('fails closed without one (a caller that bypassed the type), queueing nothing', async () => {
    const probe = requestSync(
      // @ts-expect-error `gate` is required
      { queue },
      { origin: 'person', request, context },
    );

    await expect(probe).rejects.toThrow(TypeError);
  });

  it('NO_APPROVAL_FLOW, where no approval flow is wired, queues the request as asked', async () => {
    const { port, queued } = recordingQueue();

    const outcome = await requestSync(
      { queue: port, gate: NO_APPROVAL_FLOW },
      { origin: 'person', request, context, jobId: 'journal-1' },
    );

    expect(outcome).toEqual({
      kind: 'queued',
      result: { jobId: 'job-1', duplicate: false, position: 0, ahead: [] },
    });
    expect(queued).toEqual([request]);
  });
});
