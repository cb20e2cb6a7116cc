/**
 * `/sync pipeline <pipeline|app>`: each stage of a promotion pipeline in order — its revision, where its
 * verification stands (verified and for how long, being verified and how far, or why not), its pin — which
 * verified revisions wait to be promoted to the next stage, and a Promote button on each stage whose next stage is
 * behind (shown only to someone who may sync that next stage from here).
 */
import { displayRevision } from '../../domain/index.js';
import {
  formatDuration,
  type Pin,
  type StageObservation,
  type StageSync,
  type VerifiedRevision,
} from '../../promotion/index.js';
import { actions, type Block, button, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, truncate } from './format.js';

export const PROMOTE_ACTION_ID = 'wavesync_promote';

/** What one stage shows. */
export interface StageView {
  stage: string;
  /** The user may not read this stage from here: only its name is shown. */
  hidden?: boolean;
  current?: StageSync;
  verified: readonly VerifiedRevision[];
  pin?: Pin;
  /** The verified revisions of this stage the next stage does not have yet, newest first. */
  waiting: readonly VerifiedRevision[];
  /** A Promote button to the next stage (the user may sync it). */
  promoteTo?: string;
  /** What the cluster shows now against the stage's revision, or why it could not be read. */
  live?: StageObservation | { error: string };
}

/** What a Promote button carries: it only locates; the click plans again and checks permissions. */
export interface PromoteButtonValue {
  p: string;
  f: string;
  t: string;
  r: string;
}

export function pipelineBlocks(
  pipeline: { name: string; verify: { healthyForMinutes: number; postSyncHook?: string } },
  stages: readonly StageView[],
  now: number,
): SlackMessage {
  const need = formatDuration(pipeline.verify.healthyForMinutes * 60_000);
  const hook = pipeline.verify.postSyncHook ? ` and PostSync ${pipeline.verify.postSyncHook} passed` : '';
  const head = `*Pipeline ${escapeMrkdwn(pipeline.name)}* · ${stages.map((s) => escapeMrkdwn(s.stage)).join(' → ')} · verified = Synced and Healthy for ${need}${hook}`;
  const blocks: Block[] = [section(head)];
  for (const [i, view] of stages.entries()) {
    blocks.push(section(truncate(stageText(i, view, pipeline.verify.healthyForMinutes, now), 3000)));
    const top = view.waiting[0];
    if (view.promoteTo && top) {
      const value: PromoteButtonValue = {
        p: pipeline.name,
        f: view.stage,
        t: view.promoteTo,
        r: top.revision,
      };
      blocks.push(
        actions(
          button(
            PROMOTE_ACTION_ID,
            `Promote ${shortOf(top.revision)} → ${view.promoteTo}`.slice(0, 75),
            JSON.stringify(value),
            'primary',
          ),
        ),
      );
    }
  }
  return { text: plainFallback(head), blocks: blocks.slice(0, 50) };
}

function stageText(i: number, view: StageView, healthyForMinutes: number, now: number): string {
  const name = `*${i + 1}. ${escapeMrkdwn(view.stage)}*`;
  if (view.hidden) return `${name} · 🔒 you may not read it from this channel`;
  const current = view.current;
  if (!current) return `${name} · no sync recorded since it became a stage`;
  const lines = [
    `${name} · \`${escapeMrkdwn(displayRevision(current.revision))}\` · ${statusText(current, healthyForMinutes, now)}`,
  ];
  if (view.live) lines.push(liveText(view.live));
  if (view.pin) {
    lines.push(
      `📌 pinned at \`${escapeMrkdwn(shortOf(view.pin.revision))}\` by promotion from ${escapeMrkdwn(view.pin.from)} (${formatDuration(now - view.pin.pinnedAt)} ago)`,
    );
  } else if (current.promotion) {
    lines.push(`⏫ promoted from ${escapeMrkdwn(current.promotion.from)}`);
  }
  if (view.waiting.length > 0) {
    const list = view.waiting.slice(0, 5).map((v) => `\`${escapeMrkdwn(shortOf(v.revision))}\``);
    const more = view.waiting.length > 5 ? ` and ${view.waiting.length - 5} more` : '';
    lines.push(`⏭ waiting to be promoted: ${list.join(', ')}${more}`);
  }
  return lines.join('\n');
}

/** `live: 💚 Healthy · Synced`, `live: 💔 Degraded: … · OutOfSync (2 resources)`, `live: not read (…)`. */
function liveText(live: NonNullable<StageView['live']>): string {
  if ('error' in live) return `live: not read (${escapeMrkdwn(truncate(live.error, 200))})`;
  const health = `${live.health.status}${live.health.message ? `: ${escapeMrkdwn(truncate(live.health.message, 200))}` : ''}`;
  const sync = live.outOfSync === 0 ? 'Synced' : `OutOfSync (${live.outOfSync} resource(s))`;
  return `live: ${live.health.status === 'Healthy' ? '💚' : '💔'} ${health} · ${sync}`;
}

function statusText(s: StageSync, healthyForMinutes: number, now: number): string {
  switch (s.status) {
    case 'verified':
      return `✅ verified ${formatDuration(now - (s.verifiedAt ?? s.checkedAt))} ago (Healthy for ${formatDuration(s.healthyForMs ?? 0)}${s.hook ? `, ${escapeMrkdwn(s.hook)}` : ''})`;
    case 'failed':
      return `❌ not verified: ${escapeMrkdwn(s.problem ?? 'the sync failed')}`;
    case 'verifying': {
      const need = formatDuration(healthyForMinutes * 60_000);
      if (s.healthySince === undefined) {
        return `⏳ verifying: not Healthy when last looked at ${formatDuration(now - s.checkedAt)} ago (${escapeMrkdwn(s.problem ?? 'not looked at yet')}); needs ${need}`;
      }
      return `⏳ verifying: Synced and Healthy for ${formatDuration(s.checkedAt - s.healthySince)} of ${need}`;
    }
  }
}

function shortOf(revision: string): string {
  return displayRevision(revision);
}
