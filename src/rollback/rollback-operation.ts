/**
 * What a rollback syncs — Argo CD's `argocd app rollback APPNAME [ID]`: the exact revision of a history entry with
 * the source it recorded, as a sync in every other respect. Which Applications can be rolled back at all (Argo CD
 * refuses automated sync; a local folder has no revisions), and how the worker renders a rollback: the recorded
 * source in place of the Application's own, or — for an entry recorded before history kept its source — the
 * current source at the entry's revision, said in the thread.
 */
import {
  type Application,
  type ApplicationSource,
  hasOnlyLocalSources,
  originLocation,
  type RollbackRef,
  type SyncOperation,
} from '../domain/index.js';
import type { PlanWarning } from '../engine/index.js';
import type { HistoryEntry, SyncQueueClient } from '../queue/index.js';
import { chooseRollbackTarget, type RollbackChoice, rollbackTargetBefore } from './rollback-target.js';

/** The revision of the request-policy check made before the target is known (a rollback's revision is not checked). */
export const UNKNOWN_REVISION = 'rollback';

/** How many history entries a rollback looks through (the history itself is capped by `defaults.historyLimit`). */
const ROLLBACK_HISTORY_SCAN = 1000;

/**
 * The operation of a rollback to `revision` with the entry's recorded `source` (Argo CD's rollback syncs
 * `RevisionHistory.source`; undefined: the Application's current one): no dry run, no selective sync, prune only
 * when asked (Argo CD).
 */
export function rollbackOperation(
  revision: string,
  prune = false,
  source?: ApplicationSource,
  sources?: ApplicationSource[],
): SyncOperation {
  return {
    revision,
    prune,
    dryRun: false,
    syncOptions: [],
    ...(source ? { source } : {}),
    ...(sources ? { sources } : {}),
  };
}

/** The rollback target of `application` from its history (entry `id`, or the default). */
export async function rollbackTargetOf(
  queue: Pick<SyncQueueClient, 'history'>,
  application: string,
  id?: number,
): Promise<RollbackChoice & { history: HistoryEntry[] }> {
  const history = await queue.history(application, ROLLBACK_HISTORY_SCAN);
  return { ...chooseRollbackTarget(history, id), history };
}

/**
 * The Roll back button's target, from `application`'s history: the newest Succeeded entry before failed job `jobId`
 * (rollbackTargetBefore). Undefined when `jobId` names no sync of `application` that wavesync knows — in its
 * history or still in the queue —, as a forged or foreign button value would.
 */
export async function rollbackTargetOfFailure(
  queue: Pick<SyncQueueClient, 'history' | 'jobStatus'>,
  application: string,
  jobId: string | undefined,
): Promise<(RollbackChoice & { history: HistoryEntry[] }) | undefined> {
  const history = await queue.history(application, ROLLBACK_HISTORY_SCAN);
  const known =
    jobId !== undefined &&
    (history.some((e) => e.jobId === jobId) || (await queue.jobStatus(jobId))?.application === application);
  return known ? { ...rollbackTargetBefore(history, jobId), history } : undefined;
}

/** An Application as a rollback request sees it: its name, whether it syncs automatically, and its source. */
export interface RollbackSubject {
  name: string;
  /** `spec.syncPolicy.automated` is set. */
  automated?: true;
  /** `spec.source`, or preformatted text (then it is not known to be a local folder). */
  source: ApplicationSource | string;
}

/**
 * Why `app` cannot be rolled back at all, or undefined. Argo CD refuses a rollback of an Application with automated
 * sync ("rollback cannot be initiated when auto-sync is enabled"); a local folder (empty `repoURL`) has no history
 * of revisions to return to. A sentence for people, without markup.
 */
export function rollbackRefusal(app: RollbackSubject | undefined): string | undefined {
  if (!app) return undefined;
  const name = app.name;
  if (app.automated) {
    return (
      `${name} has automated sync (spec.syncPolicy.automated), so it cannot be rolled back: the next automated sync ` +
      `would return it to its targetRevision (Argo CD refuses this too). Remove syncPolicy.automated from the ` +
      `Application and roll back, or revert the change in git.`
    );
  }
  if (typeof app.source !== 'string' && app.source.repoURL === '') {
    return (
      `${name} is read from a local folder (empty repoURL), which has no revisions to roll back to: only its ` +
      `current files exist. Restore the files and run /sync ${name}, or move the manifests to git.`
    );
  }
  return undefined;
}

/**
 * A Roll back button can be offered for `app` (a thread's failed summary): no automated sync, and a source known to
 * have revisions (not a local folder, not preformatted text).
 */
export function canRollBack(app: Pick<RollbackSubject, 'automated' | 'source'>): boolean {
  return !app.automated && typeof app.source !== 'string' && app.source.repoURL !== '';
}

/**
 * Whether `app` can be rolled back (`/sync rollback`), judged on the whole Application: Argo CD refuses Applications
 * with automated sync, and a local folder (empty repoURL) has no revisions (a multi-source Application can when one
 * of its sources is not local).
 */
export function canRollBackApplication(app: Application): boolean {
  return !app.syncPolicy?.automated && !hasOnlyLocalSources(app);
}

/**
 * A rollback to a history entry recorded before entries kept their source falls back to the Application's current
 * source at the entry's revision, and says so in the thread.
 */
export function rollbackWarnings(
  rollback: RollbackRef,
  operation: SyncOperation,
  app: Application,
): PlanWarning[] {
  if (operation.source || operation.sources) return [];
  const { file, line } = originLocation(app.origin);
  const message =
    `history entry #${rollback.id} has no recorded source (recorded before history kept it): rolling back with ` +
    `the Application's current source (repoURL, path, helm values) at revision ${rollback.revision}`;
  return [{ file, line, message }];
}
