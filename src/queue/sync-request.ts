/**
 * SyncRequest — what a caller (Slack, the CLI) asks the queue to run, and its validation.
 * The request travels as BullMQ job data, so it must stay JSON-serialisable.
 */
import { z } from 'zod';
import {
  type ApplicationSource,
  BotError,
  DELETION_CASCADES,
  type DeletionRequest,
  type PromotionRef,
  type RollbackRef,
  type SyncOperation,
} from '../domain/index.js';
import { type AppOfAppsChain, AppOfAppsChainSchema } from './app-of-apps-chain.js';
import { type RolloutChain, RolloutChainSchema } from './rollout-chain.js';
import type { Initiator, ReportTarget } from './sync-reporter.js';

export type { PromotionRef, RollbackRef };

/**
 * What the sync queue runs: a sync of an Application (SyncJob) or its deletion (DeletionJob). Both ride the same
 * per-application line, so a deletion never overlaps a sync of that app. `deletion` tells them apart: a reader
 * narrows on it (`if (request.deletion)`), and then only a SyncJob has an `operation`.
 */
export type SyncRequest = SyncJob | DeletionJob;

/** What every request carries: the Application, who asked, where it reports, and the caller's idempotency key. */
interface QueuedRequest {
  application: string;
  initiator: Initiator;
  target: ReportTarget | undefined;
  /** The caller's idempotency key (e.g. Slack trigger id + app). */
  requestKey: string;
}

/** One sync: the operation to run and where it comes from. */
export interface SyncJob extends QueuedRequest {
  operation: SyncOperation;
  deletion?: never;
  /** Set when this is the sync of an App of Apps child: the chain it belongs to (src/queue/app-of-apps-chain.ts). */
  appOfApps?: AppOfAppsChain;
  /** Set when this sync is one step of an ApplicationSet's rollout (src/queue/rollout-chain.ts). */
  rollout?: RolloutChain;
  /**
   * Present when this sync is a rollback (`/sync rollback <app> [ID]`, the Roll back button): the history entry it
   * returns to. `operation.revision` is then that entry's exact revision.
   */
  rollback?: RollbackRef;
  /** Present when this sync retries a failed one (`spec.syncPolicy.retry`, src/queue/sync-retry.ts). */
  retry?: SyncRetryRef;
  /**
   * Why an automated sync started, shown in its header and history: `push 3f9c2e1 from GitHub`, `new revision
   * 3f9c2e1 (poll)`, `first automated sync` (src/revisions).
   */
  trigger?: string;
  /**
   * Present when this sync is a promotion (`/sync promote`, src/promotion): the revision verified in the previous
   * stage. `operation.revision` is then exactly that revision (each source's, joined by `;`).
   */
  promotion?: PromotionRef;
}

/** The deletion of an Application (`/sync delete <app>`, a removed generated Application): src/deletion runs it. */
export interface DeletionJob extends QueuedRequest {
  deletion: QueuedDeletion;
  operation?: never;
  appOfApps?: never;
  rollout?: never;
  rollback?: never;
  retry?: never;
  trigger?: never;
  promotion?: never;
}

/**
 * What a deletion job asks for. `revision`, when set, is the commit the Application's deletion hooks are rendered
 * at (a removed generated Application's last synced commit: its path may be gone at its targetRevision).
 */
export type QueuedDeletion = DeletionRequest & { revision?: string };

/**
 * The operation a deletion's OperationState records (Argo CD records none: a deletion is no sync): nothing pruned,
 * applied or dry-run, at the revision its hooks are rendered at.
 */
export function deletionOperation(deletion: QueuedDeletion): SyncOperation {
  return {
    prune: false,
    dryRun: false,
    syncOptions: [],
    ...(deletion.revision ? { revision: deletion.revision } : {}),
  };
}

/** The operation a request's OperationState records: a sync's own, a deletion's deletionOperation. */
export function recordedOperation(request: SyncRequest): SyncOperation {
  return request.deletion ? deletionOperation(request.deletion) : request.operation;
}

/** Which attempt a retry is, of how many (none without a limit), after how long, and the failed attempt's message. */
interface SyncRetryRef {
  attempt: number;
  attempts?: number;
  /** Backoff from the moment it was enqueued; the worker does not run it earlier. */
  delayMs: number;
  reason: string;
}

const applicationSource = z.custom<ApplicationSource>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { repoURL?: unknown }).repoURL === 'string',
  'must be an Application source with a repoURL',
);

const OperationSchema = z.object({
  revision: z.string().min(1).optional(),
  prune: z.boolean(),
  dryRun: z.boolean(),
  resources: z
    .array(
      z.object({
        group: z.string(),
        kind: z.string().min(1),
        name: z.string().min(1),
        namespace: z.string().optional(),
      }),
    )
    .optional(),
  syncOptions: z.array(z.string()),
  // A rollback's recorded source (SyncOperation.source), as the worker recorded it in the history entry.
  source: applicationSource.optional(),
  // A multi-source rollback's recorded sources (SyncOperation.sources).
  sources: z.array(applicationSource).min(1).optional(),
});

/** What every request carries (QueuedRequest). */
const QueuedRequestSchema = z.object({
  application: z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be an Argo CD Application name'),
  initiator: z.object({ userId: z.string().min(1), userName: z.string() }),
  target: z.object({ channel: z.string().min(1), threadTs: z.string().min(1) }).optional(),
  requestKey: z.string().min(1).max(200),
});

const SyncJobSchema = QueuedRequestSchema.extend({
  operation: OperationSchema,
  appOfApps: AppOfAppsChainSchema.optional(),
  rollout: RolloutChainSchema.optional(),
  rollback: z
    .object({
      id: z.number().int().positive(),
      revision: z.string().min(1),
      undoes: z
        .object({
          id: z.number().int().positive().optional(),
          pipeline: z.string(),
          from: z.string(),
          revision: z.string(),
        })
        .optional(),
    })
    .optional(),
  promotion: z
    .object({
      pipeline: z.string().min(1),
      from: z.string().min(1),
      revision: z.string().min(1),
      verified: z.string().optional(),
      unverified: z.string().optional(),
    })
    .optional(),
  retry: z
    .object({
      attempt: z.number().int().min(2),
      attempts: z.number().int().min(2).optional(),
      delayMs: z.number().int().nonnegative(),
      reason: z.string(),
    })
    .optional(),
  trigger: z.string().min(1).max(200).optional(),
});

/** A SyncJob's own field on a deletion: refused by name, not dropped (a deletion is no rollback, retry, …). */
const noneOnDeletion = (field: string) => z.never({ message: `a deletion has no ${field}` }).optional();

const DeletionJobSchema = QueuedRequestSchema.extend({
  appOfApps: noneOnDeletion('appOfApps'),
  rollout: noneOnDeletion('rollout'),
  rollback: noneOnDeletion('rollback'),
  retry: noneOnDeletion('retry'),
  trigger: noneOnDeletion('trigger'),
  promotion: noneOnDeletion('promotion'),
  deletion: z.object({
    cascade: z.enum(DELETION_CASCADES).optional(),
    confirmed: z.array(z.string().min(1)),
    planHash: z.string().regex(/^[0-9a-f]{32}$/, 'must be a deletion plan hash'),
    revision: z.string().min(1).optional(),
  }),
  /**
   * The shape before a deletion was its own job: it rode a sync request whose operation synced nothing, its
   * `revision` the hooks' commit. Jobs queued in Redis before an upgrade still carry it, so it is read (its revision
   * becomes `deletion.revision`) and refused when it would sync something.
   */
  operation: z
    .object({
      revision: z.string().min(1).optional(),
      prune: z.literal(false, { message: 'a deletion prunes nothing' }),
      dryRun: z.literal(false, { message: 'a deletion is no dry run' }),
      syncOptions: z.array(z.string()).max(0, 'a deletion has no sync options'),
    })
    .strict()
    .optional(),
});

/**
 * Validate an untrusted request (JSON from Redis or a caller): a DeletionJob when it has a `deletion` (of any
 * value: a malformed one is refused as a deletion, never run as a sync), else a SyncJob.
 * @throws BotError('invalid_command') naming every bad field.
 */
export function parseSyncRequest(value: unknown): SyncRequest {
  const deleting =
    typeof value === 'object' && value !== null && (value as { deletion?: unknown }).deletion !== undefined;
  return deleting ? deletionJobOf(parsed(DeletionJobSchema, value)) : syncJobOf(parsed(SyncJobSchema, value));
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`);
  throw new BotError('invalid_command', `invalid sync request: ${problems.join('; ')}`);
}

function syncJobOf(data: z.output<typeof SyncJobSchema>): SyncJob {
  const { target, appOfApps, rollout, rollback, retry, trigger, promotion, ...rest } = data;
  return {
    ...rest,
    target,
    ...(trigger ? { trigger } : {}),
    ...(rollback ? { rollback: rollbackOf(rollback) } : {}),
    ...(promotion ? { promotion: withoutUndefined(promotion) } : {}),
    ...(retry ? { retry } : {}),
    ...(appOfApps ? { appOfApps } : {}),
    ...(rollout ? { rollout } : {}),
  };
}

function deletionJobOf(data: z.output<typeof DeletionJobSchema>): DeletionJob {
  const { application, initiator, target, requestKey, deletion, operation } = data;
  const revision = deletion.revision ?? operation?.revision;
  return {
    application,
    initiator,
    target,
    requestKey,
    deletion: {
      confirmed: deletion.confirmed,
      planHash: deletion.planHash,
      ...(deletion.cascade ? { cascade: deletion.cascade } : {}),
      ...(revision ? { revision } : {}),
    },
  };
}

function rollbackOf(value: {
  id: number;
  revision: string;
  undoes?: RollbackRef['undoes'] | undefined;
}): RollbackRef {
  const { undoes, ...rest } = value;
  return {
    ...rest,
    ...(undoes ? { undoes: withoutUndefined(undoes) as NonNullable<RollbackRef['undoes']> } : {}),
  };
}

/** `value` without its undefined fields (zod's optional output keeps them as keys under exactOptionalPropertyTypes). */
function withoutUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
