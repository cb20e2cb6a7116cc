import { describe, expect, it } from 'vitest';
import type { DeletionApproval } from '../environments/index.js';
import type { SyncRequest } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';
import { NO_APPROVAL_FLOW, type PersonSyncRequest, type RequestGate, requestSync } from './index.js';
import type { GateContext } from './request-sync.js';

const asker = {
  application: 'guestbook',
  initiator: { userId: 'U0MALLORY', userName: 'mallory' },
  target: undefined,
  requestKey: 'probe',
};
const request: PersonSyncRequest = { ...asker, operation: { prune: false, dryRun: false, syncOptions: [] } };
const deletion = { confirmed: [], planHash: '0'.repeat(32) };
const plan = { objects: [] } as unknown as DeletionApproval['plan'];

const context: GateContext = { header: { channel: 'C1', ts: '1.1' } };

/** A gate that records what it was asked and answers `answer`. */
function recordingGate(answer: 'proceed' | 'pending' | 'refused' = 'proceed') {
  const asked: { request: PersonSyncRequest; context: GateContext }[] = [];
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

describe("a person's request says by its type what a person may ask", () => {
  it('has no App of Apps chain, no rollout step, no deletion without its plan nor with an operation (tsc checks each)', () => {
    const rollout = { rolloutId: 'r', applicationSet: 'set', step: 0 } as unknown as SyncRequest['rollout'];
    // @ts-expect-error an App of Apps child is queued by its parent only (src/requests/for-app-of-apps.ts)
    const child: PersonSyncRequest = { ...request, appOfApps: chain };
    // @ts-expect-error a rollout queues its Applications itself (src/app-of-apps/rollout-driver.ts)
    const step: PersonSyncRequest = { ...request, rollout };
    // @ts-expect-error a deletion comes with the plan the requester confirmed (DeletionApproval)
    const planless: PersonSyncRequest = { ...asker, deletion };
    // @ts-expect-error a deletion syncs nothing: it carries no operation
    const syncing: PersonSyncRequest = { ...request, deletion: { request: deletion, plan } };

    expect([child, step, planless, syncing]).toHaveLength(4);
  });
});

describe("requestSync: the gate, then the queue, for a person's request", () => {
  it('queues nothing when the gate answers pending or refused', async () => {
    for (const answer of ['pending', 'refused'] as const) {
      const { gate, asked } = recordingGate(answer);
      const { port, queued } = recordingQueue();

      const outcome = await requestSync({ queue: port, gate }, { request, context });

      expect(outcome).toEqual({ kind: answer });
      expect(asked).toEqual([{ request, context }]);
      expect(queued).toEqual([]);
    }
  });

  it('gates a deletion with its plan, then queues the deletion job (its request, no operation)', async () => {
    const { gate, asked } = recordingGate();
    const { port, queued } = recordingQueue();
    const deleting: PersonSyncRequest = { ...asker, deletion: { request: deletion, plan } };

    const outcome = await requestSync({ queue: port, gate }, { request: deleting, context });

    expect(outcome.kind).toBe('queued');
    expect(asked).toEqual([{ request: deleting, context }]);
    expect(queued).toEqual([{ ...asker, deletion }]);
  });

  it('answers not-queued with the queue error when the producer refuses the job', async () => {
    const error = new Error('Redis is down');
    const port: EnqueuePort = { enqueueSync: () => Promise.reject(error) };

    const outcome = await requestSync({ queue: port, gate: NO_APPROVAL_FLOW }, { request, context });

    expect(outcome).toEqual({ kind: 'not-queued', error });
  });

  it('NO_APPROVAL_FLOW, where no approval flow is wired, queues the request as asked, with its journal id', async () => {
    const { port, queued } = recordingQueue();
    const asked: unknown[] = [];
    const recordingPort: EnqueuePort = {
      enqueueSync: (req, options) => {
        asked.push(options);
        return port.enqueueSync(req, options);
      },
    };

    const outcome = await requestSync(
      { queue: recordingPort, gate: NO_APPROVAL_FLOW },
      { request, context, jobId: 'journal-1' },
    );

    expect(outcome).toEqual({
      kind: 'queued',
      result: { jobId: 'job-1', duplicate: false, position: 0, ahead: [] },
    });
    expect(queued).toEqual([request]);
    expect(asked).toEqual([{ jobId: 'journal-1' }]);
  });
});
