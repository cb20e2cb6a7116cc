/** What the approval flow needs; the composition root builds it once (see docs/approvals.md). */
import type { Application } from '../../domain/index.js';
import type { DurableWrites } from '../../queue/index.js';
import type { Settings } from '../../settings/index.js';
import type { AuditLog } from '../audit-log.js';
import type { GroupMembership } from '../group-membership.js';
import type { ApprovalMessenger } from './approval-messenger.js';
import type { ApprovalRecord } from './approval-request.js';
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
  /**
   * The request path's last step for an approved request (src/requests, origin `approved`; createApprovalServices
   * wires it, the only way that origin is asked): re-check in the store that the request is approved and has no job
   * yet, queue it into its approval message's thread with a job id derived from the request, record the job, say
   * so, audit `queued`. Called with the flow's own deps (its messenger confirms durability before showing
   * anything); the flow has no producer of its own and never enqueues.
   * Resolves with the job id (the recorded one when there is one), or `{}` when it was not queued (the reason is
   * noted on the request and audited); rejects when the store does not hold the request as approved.
   */
  enqueueApproved(deps: ApprovalDeps, record: ApprovalRecord): Promise<{ jobId?: string }>;
  /**
   * Runs an approved resource action (src/resource-actions ResourceViews.run: offered, enabled, server-side apply)
   * and resolves with what it wrote; rejects with why it could not. Absent where this process has no cluster access:
   * an approved action is then noted as not run.
   */
  runResourceAction?(request: {
    application: string;
    action: string;
    target: string;
    params: Readonly<Record<string, string>>;
  }): Promise<{ target: string; changes: string[] }>;
  messenger: ApprovalMessenger;
  /**
   * A request closed without being approved — rejected, expired, withdrawn or invalidated — once its message shows
   * it (called by whoever closed it: once per request). Whoever waits for it is told: an ApplicationSet's rollout
   * (`request.rollout`) stops there. Its errors are the flow's delivery errors (the decision stands).
   */
  onClosed?(record: ApprovalRecord): Promise<void>;
  /** Clock in ms (tests move it to expire requests). */
  now(): number;
  /**
   * What must be on the Redis replicas before the messenger shows a request, a decision or a queued job (Redis
   * WAIT on the connections that wrote them); default nothing to wait for (a single Redis).
   */
  durable?: DurableWrites;
}
