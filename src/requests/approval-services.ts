/**
 * One call for the approval flow over Redis with its store, audit log, group cache and plan preview, joined to the
 * request path: an approved request is queued by the request path's `approved` origin (enqueueApproved, asked only here:
 * ApprovalDeps.enqueueApproved, called by decideApproval and enqueueStranded) on `queue`. The composition root
 * (src/main/approval-wiring.ts) and the approval flow tests both build it here. The worker process needs only
 * `createFailureNotifier` (see docs/approvals.md, "Wiring").
 */

import type { ApplicationRenderer } from '../applications/index.js';
import type { Application, KubeObject } from '../domain/index.js';
import type { Cluster } from '../engine/index.js';
import type { ApprovalDeps, ApprovalMessenger, ApprovalRecord } from '../environments/index.js';
import {
  type ApprovalStore,
  type Approvals,
  type AuditLog,
  createApprovalStore,
  createApprovals,
  createAuditLog,
  createGroupMembership,
  createSyncPreviewer,
  type ListGroupMembers,
  type SyncPreviewer,
} from '../environments/index.js';
import type { RedisClient } from '../queue/index.js';
import { allDurable, type DurableWrites, type ReplicaDurability, replicatedWrites } from '../queue/index.js';
import type { Settings } from '../settings/index.js';
import { enqueueApproved } from './enqueue-approved.js';
import type { EnqueuePort } from './enqueue-port.js';

/** Key prefix of approvals, audit and notification keys. */
const DEFAULT_APPROVALS_PREFIX = 'wavesync';

export interface ApprovalServicesOptions {
  redis: RedisClient;
  /** Default `wavesync`. */
  prefix?: string;
  /** `environments`; `resourceTracking` (default annotation tracking) finds an Application's live objects. */
  settings: Pick<Settings, 'environments'> & Partial<Pick<Settings, 'resourceTracking'>>;
  findApplication(name: string): Application | undefined;
  renderer: Pick<ApplicationRenderer, 'renderApplication'>;
  /** Live objects of an Application (create/update/prune in the plan); omit without a cluster. */
  liveObjects?(app: Application): Promise<readonly KubeObject[]>;
  /** The Application's destination cluster: the plan's live state and the live diff (takes precedence). */
  cluster?(app: Application): Cluster;
  /**
   * Computes the previews (plan, live diff) instead of one made here over `renderer` and `cluster`: serve's worker
   * thread (src/main/start-wavesync.ts), so that a big Application's diff is never computed on the bot's thread.
   */
  preview?: SyncPreviewer;
  /** The producer approved requests are queued on; `durable` (its connection's WAIT) is confirmed before a queued job is shown. */
  queue: EnqueuePort;
  messenger: ApprovalMessenger;
  /** usergroups.users.list (e.g. `slackGroupMembers(client)`). */
  listGroupMembers: ListGroupMembers;
  /** Group membership cache lifetime in ms (default 5 min). */
  groupCacheTtlMs?: number;
  /** Slack delivery errors after a stored decision. */
  onDeliveryError?(error: unknown): void;
  /** Runs an approved resource action (ResourceViews.run); omit without cluster access (approved actions are not run). */
  runResourceAction?: ApprovalDeps['runResourceAction'];
  /** Clock in epoch ms (default `Date.now`); tests pass a controllable one for expiry and freeze windows. */
  now?(): number;
  /** A request closed without approval (ApprovalDeps.onClosed): an ApplicationSet's rollout stops there. */
  onClosed?(record: ApprovalRecord): Promise<void>;
  /**
   * Replicas that must hold a decision (and the request, the job it queued) before the messenger shows it (Redis
   * WAIT on `redis`, and the queue's `durable`); default none. `replicaDurabilityFor` picks 1 on Sentinel.
   */
  durability?: ReplicaDurability;
}

export interface ApprovalServices {
  approvals: Approvals;
  store: ApprovalStore;
  audit: AuditLog;
  /** The flow's writes (its Redis connection and the queue's) on the replicas: what a click must confirm. */
  durable: DurableWrites;
}

export function createApprovalServices(options: ApprovalServicesOptions): ApprovalServices {
  const prefix = options.prefix ?? DEFAULT_APPROVALS_PREFIX;
  const store = createApprovalStore(options.redis, { prefix });
  const audit = createAuditLog(options.redis, prefix);
  const durable = allDurable([
    options.durability ? replicatedWrites([options.redis], options.durability) : undefined,
    options.queue.durable,
  ]);
  const approvals = createApprovals(
    {
      settings: options.settings,
      findApplication: options.findApplication,
      store,
      audit,
      groups: createGroupMembership({
        list: options.listGroupMembers,
        ...(options.groupCacheTtlMs === undefined ? {} : { ttlMs: options.groupCacheTtlMs }),
      }),
      preview:
        options.preview ??
        createSyncPreviewer({
          renderer: options.renderer,
          ...(options.liveObjects ? { liveObjects: options.liveObjects } : {}),
          ...(options.cluster ? { cluster: options.cluster } : {}),
          ...(options.settings.resourceTracking ? { tracking: options.settings.resourceTracking } : {}),
        }),
      enqueueApproved: (flow, record) => enqueueApproved({ ...flow, queue: options.queue }, record),
      messenger: options.messenger,
      ...(options.runResourceAction ? { runResourceAction: options.runResourceAction } : {}),
      durable,
      now: options.now ?? Date.now,
      ...(options.onClosed ? { onClosed: options.onClosed } : {}),
    },
    options.onDeliveryError,
  );
  return { approvals, store, audit, durable };
}
