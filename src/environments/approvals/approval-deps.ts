/** What the approval flow needs; the composition root builds it once (see docs/approvals.md). */
import type { Application } from '../../domain/application.js';
import type { DurableWrites, EnqueueOptions, EnqueueResult, SyncRequest } from '../../queue/index.js';
import type { Settings } from '../../settings/settings-schema.js';
import type { AuditLog } from '../audit-log.js';
import type { GroupMembership } from '../group-membership.js';
import type { ApprovalMessenger } from './approval-messenger.js';
import type { ApprovalStore } from './approval-store.js';
import type { SyncPreviewer } from './sync-preview.js';

export interface ApprovalDeps {
  settings: Pick<Settings, 'environments'>;
  /** The Application named `name`, or undefined (the registry's `find`). */
  findApplication(name: string): Application | undefined;
  store: ApprovalStore;
  audit: AuditLog;
  groups: GroupMembership;
  preview: SyncPreviewer;
  /** The producer; `durable` (its connection's WAIT) is confirmed before a queued job is shown (SyncQueue.durable). */
  queue: {
    enqueueSync(req: SyncRequest, options?: EnqueueOptions): Promise<EnqueueResult>;
    readonly durable?: DurableWrites;
  };
  messenger: ApprovalMessenger;
  /** Clock in ms (tests move it to expire requests). */
  now(): number;
  /**
   * What must be on the Redis replicas before the messenger shows a request, a decision or a queued job (Redis
   * WAIT on the connections that wrote them); default nothing to wait for (a single Redis).
   */
  durable?: DurableWrites;
}
