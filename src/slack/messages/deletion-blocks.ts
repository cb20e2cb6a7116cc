/**
 * `/sync delete <app>` messages: the plan (ephemeral confirmation with Delete/Cancel, and the approval message's
 * plan), one thread reply per deleted wave (`🗑 wave 2 · 3 resources deleted`), what was kept and why, and the
 * final reply (`🗑 Deleted guestbook · …` or `❌ Deleting guestbook failed · …`).
 */
import type { DeletionPlan } from '../../deletion/index.js';
import type { ResourceKey, SyncEvent } from '../../domain/index.js';
import {
  actions,
  type Block,
  button,
  context,
  plainFallback,
  type SlackMessage,
  section,
  textMessage,
} from './block.js';
import { escapeMrkdwn, formatDuration, listNames, plural, taskName, truncate } from './format.js';

/** Action ids of the confirmation's buttons; the value is `encodeDeletionButtonValue`. */
export const DELETE_CONFIRM_ACTION_ID = 'wavesync_delete_confirm';
export const DELETE_CANCEL_ACTION_ID = 'wavesync_delete_cancel';

const KEPT_WHY: Readonly<Record<string, string>> = {
  orphaned: 'orphaned: no resources finalizer, so deleting the Application leaves its resources',
  CustomResourceDefinition: 'CustomResourceDefinitions are never deleted with an Application',
  'Delete=false': '`argocd.argoproj.io/sync-options: Delete=false`',
  'helm.sh/resource-policy: keep': '`helm.sh/resource-policy: keep`',
  'CreateNamespace=true': 'the destination namespace `CreateNamespace=true` created (Argo CD leaves it too)',
  'the Application itself': 'the Application object itself is removed last',
};

const names = (keys: readonly Pick<ResourceKey, 'kind' | 'name'>[], max = 8) =>
  listNames(
    keys.map((k) => escapeMrkdwn(taskName(k))),
    max,
  );

/** Slack's limit on a section's text, less a margin. */
const SECTION_MAX = 2900;
/** No single wave line may crowd out the others (a wave names at most 8 objects anyway). */
const WAVE_LINE_MAX = 600;

/**
 * The plan as mrkdwn, in parts that each fit one Slack section (≤ 3000 characters):
 * - `waves`: the cascade, the PreDelete hooks, one line per wave (`🗑 wave 2 · 3 resources: …`) and the PostDelete
 *   hooks — the part that gets shortened: waves that do not fit become `… and N more resources in M waves`;
 * - `kept`: one `📌 kept · … — why` line per reason (absent when nothing is kept), never dropped for the waves;
 * - `confirm`: the `Delete=confirm` objects (absent when there are none), never dropped for the waves.
 * `kept` and `confirm` list as many names as fit and end with `and N more`. `confirmShown` are the `Delete=confirm`
 * objects `confirm` names: only these may count as confirmed (a deletion must not confirm what nobody was shown).
 * `reserved`: characters of the waves section already used by the caller's own lines (title, requester, …).
 */
export interface DeletionPlanView {
  waves: string;
  kept?: string;
  confirm?: string;
  confirmShown: ResourceKey[];
}

export function deletionPlanView(plan: DeletionPlan, reserved = 0): DeletionPlanView {
  const view: DeletionPlanView = { waves: wavesText(plan, SECTION_MAX - reserved), confirmShown: [] };
  const kept = keptText(plan.kept.map((k) => ({ key: k.key, reason: k.reason })));
  if (kept) view.kept = kept;
  if (plan.confirm.length > 0) {
    const suffix = ' — confirming this deletes them too.';
    const listed = fitNames(plan.confirm, SECTION_MAX - 40 - suffix.length);
    view.confirmShown = plan.confirm.slice(0, listed.shown);
    const hidden = plan.confirm.length - listed.shown;
    view.confirm =
      hidden === 0
        ? `⚠️ \`Delete=confirm\`: ${listed.text}${suffix}`
        : `⚠️ \`Delete=confirm\`: ${listed.text} — confirming deletes the listed ones only; the ${hidden} not listed stay unconfirmed, so the deletion stops before deleting anything.`;
  }
  return view;
}

/** The plan's lines (mrkdwn), the parts of `deletionPlanView` one after the other. */
export function deletionPlanLines(plan: DeletionPlan): string[] {
  const view = deletionPlanView(plan);
  return [view.waves, view.kept, view.confirm].filter((t) => t !== undefined).flatMap((t) => t.split('\n'));
}

function wavesText(plan: DeletionPlan, budget: number): string {
  if (plan.cascade === 'orphan') {
    return 'Only the Application goes: it has no resources finalizer (`--cascade=orphan`), so its resources stay.';
  }
  const head = [
    `Cascade: *${plan.cascade}* (${plan.propagationPolicy ?? (plan.cascade === 'background' ? 'Background' : 'Foreground')} propagation), highest sync wave first, then the Application.`,
  ];
  if (plan.hooks.preDelete.length > 0)
    head.push(truncate(`🪝 PreDelete hooks first: ${names(plan.hooks.preDelete)}`, WAVE_LINE_MAX));
  if (plan.waves.length === 0) head.push('No tracked resources are left to delete.');
  const tail =
    plan.hooks.postDelete.length > 0
      ? [truncate(`🪝 PostDelete hooks last: ${names(plan.hooks.postDelete)}`, WAVE_LINE_MAX)]
      : [];
  const waveLines = plan.waves.map((wave) =>
    truncate(
      `🗑 wave ${wave.wave} · ${plural(wave.resources.length, 'resource')}: ${names(wave.resources)}`,
      WAVE_LINE_MAX,
    ),
  );
  const size = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  const more = (from: number) => {
    const rest = plan.waves.slice(from);
    const count = rest.reduce((n, w) => n + w.resources.length, 0);
    return `… and ${plural(count, 'more resource', 'more resources')} in ${plural(rest.length, 'wave')}`;
  };
  const withWaves = (shown: number) => [
    ...head,
    ...waveLines.slice(0, shown),
    ...(shown < waveLines.length ? [more(shown)] : []),
    ...tail,
  ];
  let shown = waveLines.length;
  while (shown > 0 && size(withWaves(shown)) > budget) shown--;
  const lines = withWaves(shown);
  return truncate(lines.join('\n'), budget);
}

function keptText(kept: readonly { key: ResourceKey; reason: string }[]): string | undefined {
  const byReason = new Map<string, ResourceKey[]>();
  for (const k of kept) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), k.key]);
  if (byReason.size === 0) return undefined;
  const share = Math.floor(SECTION_MAX / byReason.size);
  return [...byReason]
    .map(([reason, keys]) => {
      const why = KEPT_WHY[reason] ?? escapeMrkdwn(reason);
      const listed = fitNames(keys, share - why.length - 20);
      return `📌 kept · ${listed.text} — ${why}`;
    })
    .join('\n');
}

/**
 * `ConfigMap/a, ConfigMap/b and 3 more` with as many names (escaped) as fit in `budget` characters; `shown` is how
 * many of `keys`, from the front, are named.
 */
function fitNames(
  keys: readonly Pick<ResourceKey, 'kind' | 'name'>[],
  budget: number,
): { text: string; shown: number } {
  const all = keys.map((k) => taskName(k));
  const suffix = (hidden: number) => (hidden > 0 ? ` and ${hidden} more` : '');
  let length = 0;
  let shown = 0;
  for (; shown < all.length; shown++) {
    const add = (shown > 0 ? 2 : 0) + all[shown]!.length;
    if (length + add + suffix(all.length - shown - 1).length > budget) break;
    length += add;
  }
  if (shown === 0) return { text: plural(all.length, 'object'), shown };
  return { text: `${all.slice(0, shown).join(', ')}${suffix(all.length - shown)}`, shown };
}

/** The requester's ephemeral confirmation: the plan (waves, kept, Delete=confirm: one section each), and Delete / Cancel. */
export function deletionConfirmationBlocks(plan: DeletionPlan, buttonValue: string): SlackMessage {
  const head = `🗑 *Delete ${escapeMrkdwn(plan.application)}?* This cannot be undone.`;
  const view = deletionPlanView(plan, head.length + 1);
  const blocks: Block[] = [
    section(`${head}\n${view.waves}`),
    ...(view.kept ? [section(view.kept)] : []),
    ...(view.confirm ? [section(view.confirm)] : []),
    context(
      `The Application stays in the wavesync.yaml registry (it comes from git). Approval rules of its environment apply.`,
    ),
    actions(
      button(DELETE_CONFIRM_ACTION_ID, 'Delete', buttonValue, 'danger'),
      button(DELETE_CANCEL_ACTION_ID, 'Cancel', buttonValue),
    ),
  ];
  return { text: plainFallback(head), blocks };
}

type ResourcesDeleted = Extract<SyncEvent, { type: 'ResourcesDeleted' }>;
type ResourcesKept = Extract<SyncEvent, { type: 'ResourcesKept' }>;
type DeletionHookFinished = Extract<SyncEvent, { type: 'DeletionHookFinished' }>;

/** `🪝 PreDelete hook Job/backup Succeeded` or `✗ PostDelete hook Job/notify Failed: <message>`. */
export function deletionHookBlocks(event: DeletionHookFinished): SlackMessage {
  const head = `${event.hookType} hook ${escapeMrkdwn(taskName(event.task))}`;
  return event.hookPhase === 'Succeeded'
    ? textMessage(`🪝 ${head} Succeeded`)
    : textMessage(`✗ ${head} Failed: ${escapeMrkdwn(truncate(event.message, 2000))}`);
}

/** `🗑 wave 2 · 3 resources deleted: Deployment/web, … (Foreground)`. */
export function resourcesDeletedBlocks(event: ResourcesDeleted): SlackMessage {
  return textMessage(
    `🗑 wave ${event.syncWave} · ${plural(event.resources.length, 'resource')} deleted: ${names(event.resources)} (${event.propagationPolicy})`,
  );
}

/** `📌 kept · ConfigMap/settings — Delete=false`, one line per reason (each names as many objects as fit). */
export function resourcesKeptBlocks(event: ResourcesKept): SlackMessage {
  return textMessage(keptText(event.kept.map((k) => ({ key: k.task, reason: k.reason }))) ?? '');
}

/** The final reply of a deletion. */
export function deletionSummaryBlocks(summary: {
  application: string;
  phase: string;
  message: string;
  durationMs: number;
}): SlackMessage {
  const app = escapeMrkdwn(summary.application);
  const line =
    summary.phase === 'Succeeded'
      ? `🗑 Deleted ${app} in ${formatDuration(summary.durationMs)} · ${escapeMrkdwn(truncate(summary.message, 1500))}`
      : `❌ Deleting ${app} ${summary.phase} after ${formatDuration(summary.durationMs)} · ${escapeMrkdwn(truncate(summary.message, 1500))}`;
  return { text: plainFallback(line), blocks: [section(line)] };
}
