/**
 * What a moved revision does (the watcher's `onMove`), as Argo CD's automated sync does, with the environment's
 * say (src/environments automatedSyncDecision):
 *
 * - an Application with `syncPolicy.automated` (not `enabled: false`) where automatic syncs are allowed now: its
 *   header is posted in the Application's channel ("triggered by push 3f9c2e1 from GitHub"), then the sync of that
 *   revision is requested (src/requests origin `automated`, pinned to the revision seen, pruning only with
 *   `automated.prune`);
 * - where the environment `requireApproval`s: an approval request instead (never a sync past it);
 * - during a freeze window: the channel is told once per revision that the sync waits, and the move is deferred
 *   (the next poll after the freeze syncs it);
 * - without `automated`, or with `autoSync: false`: one "main moved to 3f9c2e1 (by author: "subject"), 2 files
 *   changed" message with Sync and Diff buttons — a person's request, under the usual permissions.
 *
 * `decideMove` is the pure part (which of those), so other policies (pinned, promoted revisions) can consult it.
 */
import type { CommitSummary } from '../applications/index.js';
import type { Application, Initiator, SyncOperation } from '../domain/index.js';
import { type AutomatedSyncDecision, automatedSyncDecision } from '../environments/index.js';
import type { Logger } from '../logger.js';
import type { ReportTarget } from '../queue/index.js';
import { type AutomatedRequestDeps, requestAutomatedSync } from '../requests/for-revisions.js';
import type { Settings } from '../settings/index.js';
import { isAutomated, type MoveOutcome, type RevisionMove, type RevisionStore } from './revision-watcher.js';

/** Who an automated sync is requested by (header, history), as Argo CD records `automated` syncs. */
export const AUTOMATED_INITIATOR: Initiator = {
  userId: 'wavesync (automated)',
  userName: 'wavesync (automated)',
};

/** What happens to a move: a sync, an approval request, a wait (freeze), or a message for people. */
export type MoveDecision =
  | { kind: 'sync' }
  | { kind: 'approval'; environment: string }
  | { kind: 'wait'; reason: string }
  | { kind: 'notify'; reason: string };

/** The decision for `move` at `now`. @throws BotError for an Application in an unknown environment. */
export function decideMove(
  settings: Pick<Settings, 'environments' | 'defaults'>,
  move: Pick<RevisionMove, 'app'>,
  now: Date,
): MoveDecision {
  if (!isAutomated(move.app)) return { kind: 'notify', reason: 'not automated' };
  const decision: AutomatedSyncDecision = automatedSyncDecision(settings, move.app, now);
  switch (decision.kind) {
    case 'sync':
      return decision;
    case 'approval':
      return decision;
    case 'frozen':
      return {
        kind: 'wait',
        reason: `${decision.environment} is in freeze window "${decision.freeze}" until ${decision.until.slice(0, 16).replace('T', ' ')} UTC`,
      };
    case 'manual':
      return { kind: 'notify', reason: `${decision.environment} has autoSync: false` };
  }
}

/** `3f9c2e1` for a commit SHA, else the revision itself (a chart version; several joined by `;`). */
export function shortRevision(revision: string): string {
  return revision
    .split(';')
    .map((r) => (/^[0-9a-f]{40}$/i.test(r) ? r.slice(0, 7) : r))
    .join(';');
}

/** The trigger line of a move: `push 3f9c2e1 from GitHub`, `new revision 3f9c2e1 (poll)`, `first automated sync`. */
export function triggerText(move: Pick<RevisionMove, 'to' | 'trigger' | 'firstSync'>): string {
  const rev = shortRevision(move.to);
  if (move.firstSync) return `first automated sync of ${rev}`;
  if (move.trigger.kind === 'push') return `push ${rev} from ${move.trigger.provider ?? 'a webhook'}`;
  return `new revision ${rev} (poll)`;
}

/** The chat side of moves (src/slack/reporters/revision-notices.ts). Each rejects when Slack fails. */
export interface RevisionAnnouncer {
  /** Post an automated sync's header in the Application's channel; its thread, or undefined without a channel. */
  syncHeader(app: Application, operation: SyncOperation, trigger: string): Promise<ReportTarget | undefined>;
  /** "main moved to 3f9c2e1 …" with Sync and Diff buttons (`why`: why it is not synced automatically). */
  newRevision(move: RevisionMove, commit: CommitSummary | undefined, why: string): Promise<void>;
  /** The automated sync of a revision waits (a freeze window): said once per revision. */
  waiting(move: RevisionMove, reason: string): Promise<void>;
}

export interface MoveActionsDeps {
  settings: Pick<Settings, 'environments' | 'defaults'>;
  channelOf(app: Application): string | undefined;
  announcer: RevisionAnnouncer;
  /** Author, subject and changed files of a git move (GitRepositoryCache.describeCommit); optional. */
  describeCommit?(repoURL: string, sha: string, since?: string): Promise<CommitSummary>;
  request: AutomatedRequestDeps;
  store: Pick<RevisionStore, 'claim'>;
  now?: () => Date;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** How long a "waits for the freeze" message is claimed per revision. */
const WAIT_NOTICE_TTL_MS = 7 * 24 * 3_600_000;

/** The watcher's onMove. Rejects when chat or the queue fails (the watcher keeps the previous revision). */
export function createMoveActions(deps: MoveActionsDeps): (move: RevisionMove) => Promise<MoveOutcome> {
  return async (move) => {
    const { app } = move;
    const decision = decideMove(deps.settings, move, deps.now?.() ?? new Date());
    const trigger = triggerText(move);
    deps.logger?.info(
      { application: app.name, from: move.from, to: move.to, decision: decision.kind, trigger },
      'revision moved',
    );
    switch (decision.kind) {
      case 'notify': {
        if (move.firstSync) return 'done';
        const commit = await describe(deps, move);
        await deps.announcer.newRevision(move, commit, decision.reason);
        return 'done';
      }
      case 'wait': {
        if (await deps.store.claim(`wait:${app.name}:${move.to}`, WAIT_NOTICE_TTL_MS))
          await deps.announcer.waiting(move, decision.reason);
        return 'deferred';
      }
      case 'approval': {
        const channel = deps.channelOf(app);
        if (!channel) {
          deps.logger?.warn(
            { application: app.name, trigger },
            'automated sync needs approval but the Application has no channel to ask in',
          );
          return 'done';
        }
        const outcome = await requestAutomatedSync(deps.request, {
          request: {
            application: app.name,
            operation: operationOf(move),
            initiator: AUTOMATED_INITIATOR,
            target: undefined,
            trigger,
          },
          key: `${app.name}@${move.to}`,
          approval: { channel },
        });
        if (outcome.kind === 'refused')
          deps.logger?.warn(
            { application: app.name, reason: outcome.reason },
            'automated approval request refused',
          );
        return 'done';
      }
      case 'sync': {
        const operation = operationOf(move);
        const target = await deps.announcer.syncHeader(app, operation, trigger);
        await requestAutomatedSync(deps.request, {
          request: { application: app.name, operation, initiator: AUTOMATED_INITIATOR, target, trigger },
          key: `${app.name}@${move.to}`,
        });
        return 'done';
      }
    }
  };
}

/** Argo CD's automated sync: the revision seen, pruning only with `automated.prune`, never a dry run. */
function operationOf(move: RevisionMove): SyncOperation {
  return {
    ...(move.pin ? { revision: move.pin } : {}),
    prune: move.app.syncPolicy?.automated?.prune === true,
    dryRun: false,
    syncOptions: [],
  };
}

async function describe(deps: MoveActionsDeps, move: RevisionMove): Promise<CommitSummary | undefined> {
  if (!move.git || !move.pin || !deps.describeCommit) return undefined;
  try {
    const commit = await deps.describeCommit(move.git.repoURL, move.pin, move.from);
    const under = move.git.path ? `${move.git.path.replace(/^\.\/|\/+$/g, '')}/` : '';
    return under ? { ...commit, files: commit.files.filter((f) => f.startsWith(under)) } : commit;
  } catch (error) {
    deps.logger?.warn({ err: error, application: move.app.name }, 'commit not described');
    return undefined;
  }
}
