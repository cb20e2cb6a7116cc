/**
 * The header's fixed part (app, destination, who, command) for a request or a queued job, so the bot, the
 * cancel paths and the worker's reporter all draw the same header.
 */
import type {
  DeletionRequest,
  Initiator,
  PromotionRef,
  RollbackRef,
  SyncOperation,
} from '../../domain/index.js';
import { canRollBack } from '../../rollback/index.js';
import { formatDestination } from '../messages/format.js';
import type { SyncHeaderView } from '../messages/sync-header-blocks.js';
import type { ApplicationCatalog } from '../ports.js';

export type HeaderBase = Omit<SyncHeaderView, 'state'>;

/** What a header is drawn from: a sync with its operation, or a deletion. */
type HeaderJob = { application: string; initiator: Initiator; jobId?: string } & (
  | {
      operation: SyncOperation;
      deletion?: never;
      rollback?: RollbackRef;
      /** Why an automated sync started (SyncJob.trigger). */
      trigger?: string;
      promotion?: PromotionRef;
    }
  | { deletion: DeletionRequest; operation?: never }
);

/** The header of a sync of `application` with `operation` (or of its deletion), requested by `initiator`. */
export function headerViewOf(catalog: ApplicationCatalog, job: HeaderJob): HeaderBase {
  const summary = catalog.describe(job.application);
  const destination = summary
    ? (summary.environment ?? formatDestination(summary.destination))
    : 'unknown destination';
  if (job.deletion) {
    return {
      application: job.application,
      destination,
      initiator: job.initiator,
      commandText: deleteCommandTextOf(job.application, job.deletion),
      deletion: true,
      ...(job.jobId ? { jobId: job.jobId } : {}),
    };
  }
  const note = [job.trigger ? `triggered by ${job.trigger}` : undefined, noteOf(job.operation)]
    .filter(Boolean)
    .join(' · ');
  const rollbackable = !job.operation.dryRun && summary !== undefined && canRollBack(summary);
  return {
    application: job.application,
    destination,
    initiator: job.initiator,
    commandText: job.rollback
      ? rollbackCommandTextOf(job.application, job.rollback, job.operation)
      : job.promotion
        ? `/sync promote ${job.promotion.pipeline} --to ${job.application}`
        : commandTextOf(job.application, job.operation),
    ...(job.rollback ? { rollback: job.rollback } : {}),
    ...(job.promotion ? { promotion: job.promotion } : {}),
    ...(rollbackable ? { rollbackable: true } : {}),
    ...(job.operation.revision ? { revision: job.operation.revision } : {}),
    ...(job.jobId ? { jobId: job.jobId } : {}),
    ...(note ? { note } : {}),
  };
}

/** The canonical command for an operation: `/sync guestbook --revision v2 --prune --resource apps:Deployment:web`. */
function commandTextOf(application: string, op: SyncOperation): string {
  const words = ['/sync', application];
  if (op.revision) words.push('--revision', op.revision);
  if (op.prune) words.push('--prune');
  if (op.dryRun) words.push('--dry-run');
  for (const r of op.resources ?? [])
    words.push('--resource', `${r.group}:${r.kind}:${r.namespace ? `${r.namespace}/` : ''}${r.name}`);
  return words.join(' ');
}

/** `/sync rollback guestbook 41 --prune`. */
function rollbackCommandTextOf(application: string, rollback: RollbackRef, op: SyncOperation): string {
  return `/sync rollback ${application} ${rollback.id}${op.prune ? ' --prune' : ''}`;
}

/** `/sync delete guestbook --cascade=background`. */
export function deleteCommandTextOf(application: string, deletion: Pick<DeletionRequest, 'cascade'>): string {
  return `/sync delete ${application}${deletion.cascade ? ` --cascade=${deletion.cascade}` : ''}`;
}

/** What the header should say about a special operation (selective sync runs no hooks, as in Argo CD). */
function noteOf(op: SyncOperation): string | undefined {
  const notes: string[] = [];
  if (op.resources?.length) notes.push('selective sync: hooks do not run');
  if (op.dryRun) notes.push('dry run: nothing is applied');
  return notes.length ? notes.join(' · ') : undefined;
}
