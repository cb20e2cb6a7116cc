import { describe, expect, it } from 'vitest';
import { LEGACY_DELETION_APPROVAL as stored } from '../../test/support/legacy-deletion-approval.js';
import type { ApprovalRecord } from '../environments/index.js';
import type { SyncRequest } from '../queue/index.js';
import { enqueueApproved } from './enqueue-approved.js';

function deps(record: ApprovalRecord) {
  const queued: { request: SyncRequest; jobId: string | undefined }[] = [];
  return {
    queued,
    deps: {
      store: {
        get: async () => record,
        recordJob: async () => undefined,
        recordNote: async () => undefined,
      },
      messenger: { replyInThread: async () => undefined, updateApproval: async () => undefined },
      audit: { append: async () => undefined },
      queue: {
        enqueueSync: async (request: SyncRequest, options?: { jobId?: string }) => {
          queued.push({ request, jobId: options?.jobId });
          return { jobId: options?.jobId ?? 'job', duplicate: false, position: 0, ahead: [] };
        },
      },
    } as unknown as Parameters<typeof enqueueApproved>[0],
  };
}

describe('an approved deletion recorded before a deletion was its own job', () => {
  it('is queued as a deletion job: its deletion, no operation, reporting under the approval message', async () => {
    const { deps: approved, queued } = deps(stored);

    await enqueueApproved(approved, stored);

    expect(queued).toHaveLength(1);
    expect(queued[0]?.request).toEqual({
      application: 'guestbook',
      initiator: { userId: 'U0KIM', userName: 'kim' },
      target: { channel: 'C0DEPLOYS', threadTs: '1767607200.000100' },
      requestKey: `approval-${stored.request.id}`,
      deletion: stored.request.deletion?.request,
    });
    expect(queued[0]?.request).not.toHaveProperty('operation');
  });
});
