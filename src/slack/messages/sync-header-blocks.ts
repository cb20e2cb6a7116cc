/**
 * The sync's header: the root message of its thread, edited in place as the sync moves (queued → running →
 * succeeded/failed). Answers "what is happening right now?" without opening the thread.
 */
import { displayRevision, type Initiator, type WaveRef } from '../../domain/index.js';
import type { OperationHeaderState } from '../../thread/index.js';
import type { JobAhead } from '../ports.js';
import { actions, type Block, button, context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, formatClock, formatHealth, mention, ordinal, truncate } from './format.js';

/** Action id of the header's Cancel button; its value is the job id. */
export const CANCEL_ACTION_ID = 'wavesync_cancel';

/** The header's state: the bot's, before the operation starts, and the thread's from then on (src/thread). */
export type SyncHeaderState =
  | { kind: 'received' }
  | { kind: 'queued'; position: number; ahead: JobAhead[] }
  | OperationHeaderState
  | { kind: 'not_queued'; reason: string }
  | { kind: 'duplicate'; permalink: string | undefined };

export interface SyncHeaderView {
  application: string;
  /** Environment or destination, shown after the arrow: `guestbook → staging`. */
  destination: string;
  /** Requested or resolved revision. */
  revision?: string;
  initiator: Initiator;
  /** The command as typed, e.g. `/sync guestbook --prune`. */
  commandText: string;
  jobId?: string;
  /** Extra context, e.g. `selective sync: hooks do not run`. */
  note?: string;
  /** The job deletes the Application (`/sync delete`): the title reads `🗑 Deleting app` / `🗑 Deleted app`. */
  deletion?: boolean;
  /** The Application can be rolled back (`canRollBack`): a failed summary gets a Roll back button. */
  rollbackable?: boolean;
  /** The job is a rollback: the title says `Rollback to 3f2a1c9 (#41)`. */
  rollback?: { id: number; revision: string; undoes?: { id?: number; from: string; revision: string } };
  /** The job is a promotion: the title says `Promotion of 3f9c2e1 from staging`. */
  promotion?: { from: string; revision: string; unverified?: string };
  state: SyncHeaderState;
}

/** Header blocks: one status line, one context line (revision · who · command), and a Cancel button while live. */
export function syncHeaderBlocks(view: SyncHeaderView): SlackMessage {
  const title = view.deletion
    ? deletionTitle(view)
    : `${stateIcon(view.state)} *${escapeMrkdwn(view.application)}* → ${escapeMrkdwn(view.destination)}`;
  const line = [title, ...rollbackParts(view), ...stateParts(view.state)].join('  ·  ');
  const revision = view.revision ? `revision \`${escapeMrkdwn(shortRevision(view.revision))}\` · ` : '';
  const note = view.note ? ` · ${escapeMrkdwn(view.note)}` : '';
  const who = `${revision}requested by ${mention(view.initiator.userId)} · \`${escapeMrkdwn(truncate(view.commandText, 200))}\`${note}`;
  const blocks: Block[] = [section(truncate(line, 3000)), context(who)];
  const live =
    view.state.kind === 'queued' || view.state.kind === 'running' || view.state.kind === 'received';
  if (live && view.jobId) blocks.push(actions(button(CANCEL_ACTION_ID, 'Cancel', view.jobId, 'danger')));
  return { text: plainFallback(line), blocks };
}

/** `Rollback to `3f2a1c9` (#41)` for a rollback, `Promotion of `3f9c2e1` from staging` for a promotion. */
function rollbackParts(view: SyncHeaderView): string[] {
  const r = view.rollback;
  if (r) return [rollbackTitle(r)];
  return view.promotion ? [promotionTitle(view.promotion)] : [];
}

/**
 * `Rollback to `3f2a1c9` (#41)`: the rollback's target revision (short) and history id; when the operation it
 * undoes was a promotion, `, undoing the promotion of `9e8d7c6` from staging (#42)`.
 */
export function rollbackTitle(r: {
  id: number;
  revision: string;
  undoes?: { id?: number; from: string; revision: string };
}): string {
  const undoes = r.undoes
    ? `, undoing the promotion of \`${escapeMrkdwn(shortRevision(r.undoes.revision))}\` from ${escapeMrkdwn(r.undoes.from)}${r.undoes.id ? ` (#${r.undoes.id})` : ''}`
    : '';
  return `Rollback to \`${escapeMrkdwn(shortRevision(r.revision))}\` (#${r.id})${undoes}`;
}

/** `Promotion of `3f9c2e1` from staging` (`⚠️ unverified` for a break-glass promotion). */
export function promotionTitle(p: { from: string; revision: string; unverified?: string }): string {
  return `Promotion of \`${escapeMrkdwn(shortRevision(p.revision))}\` from ${escapeMrkdwn(p.from)}${p.unverified ? ' (⚠️ unverified)' : ''}`;
}

/** `🗑 Deleting *app* → production`, `🗑 Deleted *app* → production` or `❌ Deleting *app* → production`. */
function deletionTitle(view: SyncHeaderView): string {
  const { state } = view;
  const done = state.kind === 'completed' && state.phase === 'Succeeded';
  const failed = (state.kind === 'completed' && !done) || state.kind === 'not_queued';
  const icon = failed ? '❌' : state.kind === 'cancelled' ? '🚫' : '🗑';
  return `${icon} ${done ? 'Deleted' : 'Deleting'} *${escapeMrkdwn(view.application)}* → ${escapeMrkdwn(view.destination)}`;
}

function stateIcon(state: SyncHeaderState): string {
  switch (state.kind) {
    case 'received':
    case 'queued':
      return '⏳';
    case 'running':
      return '🔄';
    case 'completed':
      if (state.phase !== 'Succeeded') return '❌';
      return state.health && state.health.status !== 'Healthy' ? '⚠️' : '✅';
    case 'cancelled':
      return '🚫';
    case 'not_queued':
      return '❌';
    case 'duplicate':
      return '↪️';
  }
}

function stateParts(state: SyncHeaderState): string[] {
  switch (state.kind) {
    case 'received':
      return ['received'];
    case 'queued':
      return [queuedText(state.position, state.ahead)];
    case 'running':
      return [
        'Running',
        ...(state.wave ? [waveText(state.wave)] : []),
        formatClock(state.elapsedMs),
        ...(state.waiting?.length ? [`waiting for ${escapeMrkdwn(waitingText(state.waiting))}`] : []),
      ];
    case 'completed':
      return [
        state.phase,
        ...(state.phase === 'Succeeded' ? [] : [escapeMrkdwn(truncate(state.message, 300))]),
        ...(state.health ? [formatHealth(state.health)] : []),
        formatClock(state.durationMs),
      ];
    case 'cancelled':
      return [
        `Cancelled by ${mention(state.by)}${state.reason ? `: ${escapeMrkdwn(truncate(state.reason, 300))}` : ''}`,
        ...(state.message ? [escapeMrkdwn(truncate(state.message, 300))] : []),
        ...(state.durationMs === undefined ? [] : [formatClock(state.durationMs)]),
      ];
    case 'not_queued':
      return [`Not queued: ${escapeMrkdwn(state.reason)}`];
    case 'duplicate':
      return [
        state.permalink ? `already requested — <${state.permalink}|see that thread>` : 'already requested',
      ];
  }
}

/** `Deployment/web 0/1 ready: ImagePullBackOff (app:v2); Job/migrate: …` — at most 3 reasons, then `+N more`. */
function waitingText(reasons: readonly string[]): string {
  const shown = reasons.slice(0, 3).map((r) => truncate(r, 300));
  const more = reasons.length > 3 ? `; +${reasons.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** `PreSync wave 2 · step 2 of 4`. */
export function waveText(wave: WaveRef): string {
  return `${wave.phase} wave ${wave.wave} · step ${wave.index} of ${wave.total}`;
}

/** `queued · next in line` or `queued · 2nd in line behind @lee's sync (running, Sync wave 1 · step 2 of 3)`. */
function queuedText(position: number, ahead: readonly JobAhead[]): string {
  const first = ahead[0];
  if (position <= 0 || !first) return 'queued · next in line';
  const detail =
    first.state === 'active' ? `running${first.wave ? `, ${waveText(first.wave)}` : ''}` : 'waiting';
  const others = ahead.length > 1 ? ` and ${ahead.length - 1} more` : '';
  return `queued · ${ordinal(position + 1)} in line behind ${mention(first.initiator.userId)}'s sync (${detail})${others}`;
}

/** The first 7 characters of a 40-hex SHA, `local@<8>` for a local folder's content hash (displayRevision). */
export function shortRevision(revision: string): string {
  return displayRevision(revision);
}
