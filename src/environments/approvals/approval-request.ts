/**
 * ApprovalRequest — a sync waiting for approval, bound to the exact Application, resolved revision and options.
 * `binding` is a SHA-256 of (application, revision, operation); the decision re-computes it and an approval of
 * something that changed since the request is refused and the request invalidated.
 */
import { createHash } from 'node:crypto';
import type { DeletionPlan } from '../../deletion/index.js';
import type {
  DeletionRequest,
  Initiator,
  PromotionRef,
  RollbackRef,
  SyncOperation,
} from '../../domain/index.js';
import type { RolloutChain } from '../../queue/index.js';
import type { Principals } from '../../settings/index.js';
import type { DiffSummary } from './diff-summary.js';
import type { PlanSummary } from './plan-summary.js';

/** `withdrawn`: cancelled with `/sync cancel` while pending (by the requester or whoever may cancel). */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'invalidated' | 'withdrawn';

export interface MessageRef {
  channel: string;
  ts: string;
}

export interface BreakGlass {
  reason: string;
  /** Name of the freeze window broken. */
  freeze: string;
  /** ISO-8601 end of that window. */
  endsAt: string;
}

/** The immutable part of a request, stored as JSON. */
export interface ApprovalRequest {
  id: string;
  application: string;
  environment: string;
  operation: SyncOperation;
  /** Resolved revision (git SHA or content hash). */
  revision: string;
  /** Symbolic revision requested (`main`, `v1.2.0`, HEAD). */
  revisionName: string;
  binding: string;
  requester: Initiator;
  /** Channel the request was made in (where the approval message goes). */
  channel: string;
  approvers: Principals;
  requiredApprovals: number;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  expiresAt: string;
  plan: PlanSummary;
  /** The live diff at request time (masked summary), when the cluster was read. */
  diff?: DiffSummary;
  /** Why the live state could not be read at request time. */
  liveError?: string;
  breakGlass?: BreakGlass;
  /** Present when the request deletes the Application (`/sync delete`): what is asked and the plan shown. */
  deletion?: DeletionApproval;
  /** Present when the request is a rollback (`/sync rollback`): the history entry it returns to. */
  rollback?: RollbackRef;
  /** Present when the Application is synced by an ApplicationSet's rollout: queued with it, so it continues. */
  rollout?: RolloutChain;
  /**
   * An automated sync's reason (src/revisions: `push 3f9c2e1 from GitHub`): the approved job carries it as its
   * SyncRequest.trigger, so its header and history say why it started.
   */
  syncTrigger?: string;
  /** Present when the request is a promotion (`/sync promote`): what it moves and how it was verified. */
  promotion?: PromotionRef;
  /**
   * Present when the request runs a resource action (`/sync action`, a resource's action button) instead of a sync:
   * approved, the flow runs it once (ApprovalDeps.runResourceAction) and posts the result in the message's thread.
   */
  resourceAction?: ResourceActionRef;
}

/** A resource action under approval: what runs, on what, and what it would write when asked. */
export interface ResourceActionRef {
  action: string;
  /** As asked: `Kind/name` or `namespace/Kind/name`. */
  target: string;
  params: Record<string, string>;
  /** What it would write when the request was made (`would patch Deployment/web`). */
  plan: string[];
}

/** A deletion under approval: the queue's DeletionRequest and the plan the approvers see. */
export interface DeletionApproval {
  request: DeletionRequest;
  plan: DeletionPlan;
}

export interface Approval {
  userId: string;
  /** ms since epoch. */
  at: number;
}

/** A request with its current (mutable) state. */
export interface ApprovalRecord {
  request: ApprovalRequest;
  status: ApprovalStatus;
  approvals: Approval[];
  message?: MessageRef;
  decidedBy?: string;
  /** ms since epoch. */
  decidedAt?: number;
  /** Why it was invalidated or not queued. */
  note?: string;
  jobId?: string;
}

/**
 * SHA-256 hex of what would be synced (or, with `deletion`, deleted); key order fixed so equal inputs always hash
 * equal.
 */
export function bindingOf(
  application: string,
  revision: string,
  operation: SyncOperation,
  deletion?: DeletionRequest,
): string {
  const deleting = deletion
    ? [['delete', deletion.cascade ?? '', [...deletion.confirmed].sort(), deletion.planHash]]
    : [];
  const canonical = JSON.stringify([
    ...deleting,
    application,
    revision,
    operation.revision ?? null,
    operation.prune,
    operation.dryRun,
    [...operation.syncOptions].sort(),
    (operation.resources ?? []).map((r) => [r.group, r.kind, r.namespace ?? '', r.name]),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The command that asks again for what `request` asked: `/sync delete <app>` for a deletion, `/sync <appset>` for an
 * Application of an ApplicationSet's rollout, else `/sync <app>`.
 */
export function rerunCommandOf(
  request: Pick<ApprovalRequest, 'application' | 'deletion'> &
    Pick<Partial<ApprovalRequest>, 'rollback' | 'promotion' | 'rollout' | 'resourceAction'>,
): string {
  if (request.resourceAction)
    return `/sync action ${request.application} ${describeResourceAction(request.resourceAction)}`;
  // A rollout's Application: the rollout stopped when its request closed; it is started over as a whole.
  if (request.rollout) return `/sync ${request.rollout.applicationSet}`;
  if (request.promotion) return `/sync promote ${request.promotion.pipeline} --to ${request.application}`;
  if (request.rollback) return `/sync rollback ${request.application} ${request.rollback.id}`;
  return request.deletion ? `/sync delete ${request.application}` : `/sync ${request.application}`;
}

/** `restart Deployment/web` (parameters as `k=v`): the action as typed after the application. */
export function describeResourceAction(ref: Pick<ResourceActionRef, 'action' | 'target' | 'params'>): string {
  const params = Object.entries(ref.params).map(([k, v]) => `${k}=${v}`);
  return [ref.action, ref.target.replace(/^\//, ''), ...params].join(' ');
}

/** The binding of a resource action request: what runs on what, with which parameters. */
export function resourceActionBindingOf(application: string, ref: ResourceActionRef): string {
  const params = Object.entries(ref.params).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify(['resource-action', application, ref.action, ref.target, params]))
    .digest('hex');
}
