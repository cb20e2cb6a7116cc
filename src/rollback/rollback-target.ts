/**
 * Which history entry a rollback returns to — Argo CD's `argocd app rollback APPNAME [ID]`: the entry with history
 * id `ID`, else the newest Succeeded entry before the current one (the newest operation). Only real syncs that
 * Succeeded with a recorded revision qualify: dry runs, deletions, failed, errored or cancelled operations and
 * entries recorded before ids existed do not (rolling back to what never deployed would not restore anything).
 */
import type { HistoryEntry } from '../queue/index.js';

export type RollbackChoice =
  | { ok: true; entry: HistoryEntry & { id: number } }
  | { ok: false; problem: string };

/**
 * Choose the rollback target among `history` (newest first, as `SyncQueueClient.history` returns it).
 * `id` undefined = the default. `problem` is a sentence for the requester (Slack mrkdwn-free).
 */
export function chooseRollbackTarget(history: readonly HistoryEntry[], id?: number): RollbackChoice {
  return chooseTarget(history, id);
}

/**
 * The Roll back button's target: the newest Succeeded entry older than the failed job `jobId`'s entry; when that
 * job is not in the history yet (clicked before its end was recorded), the newest Succeeded entry of all.
 */
export function rollbackTargetBefore(
  history: readonly HistoryEntry[],
  jobId: string | undefined,
): RollbackChoice {
  const at = jobId === undefined ? 0 : history.findIndex((e) => e.jobId === jobId);
  if (at === -1) return chooseTarget([PENDING, ...history]);
  return chooseTarget(history.slice(at));
}

/**
 * The promotion a rollback to entry `targetId` undoes: the newest Succeeded promotion (not a dry run) recorded after
 * that entry in `history` (newest first), or undefined — `/sync promote` and rollback share the history, so a
 * rollback of production can say "undoing the promotion of 3f9c2e1 from staging (#42)".
 */
export function promotionUndone(
  history: readonly HistoryEntry[],
  targetId: number,
): { id?: number; pipeline: string; from: string; revision: string } | undefined {
  const at = history.findIndex((e) => e.id === targetId);
  const newer = at < 0 ? [] : history.slice(0, at);
  const undone = newer.find((e) => e.promotion && e.phase === 'Succeeded' && !e.dryRun);
  if (!undone?.promotion) return undefined;
  const { pipeline, from } = undone.promotion;
  return { ...(undone.id ? { id: undone.id } : {}), pipeline, from, revision: undone.revision };
}

/** Stands for the failed operation whose history entry is not recorded yet. */
const PENDING = { phase: 'Failed' } as HistoryEntry;

function chooseTarget(history: readonly HistoryEntry[], id?: number): RollbackChoice {
  if (id !== undefined) {
    const entry = history.find((e) => e.id === id);
    if (!entry) {
      const ids = history.flatMap((e) => (e.id === undefined ? [] : [`#${e.id}`])).slice(0, 10);
      return {
        ok: false,
        problem: `History has no entry #${id}${ids.length ? ` (newest: ${ids.join(', ')})` : ''}. /sync history lists them.`,
      };
    }
    const why = unfit(entry);
    return why
      ? { ok: false, problem: `Entry #${id} ${why}: nothing to roll back to.` }
      : { ok: true, entry: { ...entry, id } };
  }
  const [current, ...before] = history;
  if (!current) return { ok: false, problem: 'It has no history yet: nothing to roll back to.' };
  const entry = before.find((e) => unfit(e) === undefined);
  if (entry?.id === undefined) {
    return {
      ok: false,
      problem: 'No Succeeded sync before the current one is in its history: nothing to roll back to.',
    };
  }
  return { ok: true, entry: { ...entry, id: entry.id } };
}

/** Why an entry cannot be rolled back to, or undefined when it can. */
function unfit(e: HistoryEntry): string | undefined {
  if (e.id === undefined) return 'was recorded before history ids existed';
  if (e.deletion) return 'is a deletion';
  if (e.dryRun) return 'is a dry run (nothing was applied)';
  if (e.phase !== 'Succeeded') return `did not succeed (${e.phase})`;
  if (!e.revision) return 'has no recorded revision';
  return undefined;
}
