/**
 * `/sync resources <app>`: the Application's resource tree (src/resource-actions), one line per object — indented
 * under its owner, health icon, `Kind/name`, health, sync status and the health message — unhealthy first, and
 * under each line a button per enabled resource action discovery offers (disabled ones are named, not offered).
 * Within Slack's 50 blocks per message: what does not fit is counted, with a "Show all" button opening a modal of
 * every line (100 blocks of 3,000 characters).
 */
import type { ResourceViewLine } from '../../resource-actions/index.js';
import {
  type ActionsBlock,
  actions,
  type Block,
  button,
  context,
  plainFallback,
  SLACK_LIMITS,
  type SlackMessage,
  section,
} from './block.js';
import { escapeMrkdwn, packLines, plural, truncate } from './format.js';

export const RESOURCE_ACTION_ID = 'wavesync_resource_action';
export const RESOURCES_SHOW_ALL_ACTION_ID = 'wavesync_resources_show_all';

const ICONS: Record<string, string> = {
  Healthy: '💚',
  Progressing: '🔄',
  Degraded: '💔',
  Suspended: '⏸️',
  Missing: '👻',
  Unknown: '❔',
};

/** What a resource action button carries: which Application, action and object (never who may: that is checked). */
export interface ResourceActionButtonValue {
  application: string;
  action: string;
  /** `namespace/Kind/name` */
  target: string;
}

function targetOf(line: Pick<ResourceViewLine, 'object'>): string {
  const { metadata, kind } = line.object;
  return `${metadata.namespace ?? ''}/${kind}/${metadata.name ?? ''}`;
}

function resourceLineText(line: ResourceViewLine): string {
  const indent = line.depth > 0 ? `${'\u2003'.repeat(line.depth - 1)}└ ` : '';
  const icon = line.health ? (ICONS[line.health.status] ?? '▫️') : '▫️';
  const parts = [`*${escapeMrkdwn(line.object.kind)}/${escapeMrkdwn(line.object.metadata.name ?? '')}*`];
  if (line.health) parts.push(line.health.status);
  if (line.syncStatus) parts.push(line.syncStatus);
  const message = line.health?.message ? ` — ${escapeMrkdwn(truncate(line.health.message, 300))}` : '';
  const disabled = line.actions.filter((a) => a.disabled).map((a) => a.name);
  const note = disabled.length > 0 ? ` _(not now: ${escapeMrkdwn(disabled.join(', '))})_` : '';
  return `${indent}${icon} ${parts.join(' · ')}${message}${note}`;
}

function actionButtons(application: string, line: ResourceViewLine): ActionsBlock | undefined {
  const enabled = line.actions.filter((a) => !a.disabled).slice(0, 5);
  if (enabled.length === 0) return undefined;
  return actions(
    ...enabled.map((a) => {
      const value: ResourceActionButtonValue = { application, action: a.name, target: targetOf(line) };
      return button(
        RESOURCE_ACTION_ID,
        `${a.displayName || a.name} ${line.object.kind}/${line.object.metadata.name ?? ''}`.slice(0, 75),
        JSON.stringify(value),
      );
    }),
  );
}

function summary(application: string, lines: readonly ResourceViewLine[]): string {
  const count = (status: string) => lines.filter((l) => l.health?.status === status).length;
  const bad = [
    count('Degraded') > 0 ? `${count('Degraded')} Degraded` : '',
    count('Progressing') > 0 ? `${count('Progressing')} Progressing` : '',
  ].filter(Boolean);
  return `📦 Resources of *${escapeMrkdwn(application)}*: ${plural(lines.length, 'object')}${bad.length > 0 ? ` — ${bad.join(', ')}` : ''}`;
}

/** The reply: as many lines (each with its buttons) as fit in one message, then "Show all". */
export function resourceTreeBlocks(application: string, lines: readonly ResourceViewLine[]): SlackMessage {
  const title = summary(application, lines);
  if (lines.length === 0) {
    return {
      text: plainFallback(title),
      blocks: [section(`${title}\n_nothing tracked in the cluster yet_`)],
    };
  }
  const blocks: Block[] = [section(title)];
  const reserve = 3; // the "N more" context and the Show all button
  let shown = 0;
  for (const line of lines) {
    const buttons = actionButtons(application, line);
    const needed = buttons ? 2 : 1;
    if (blocks.length + needed > SLACK_LIMITS.maxBlocks - reserve) break;
    blocks.push(section(resourceLineText(line)));
    if (buttons) blocks.push(buttons);
    shown++;
  }
  if (shown < lines.length) {
    blocks.push(
      context(`${shown} of ${lines.length} shown; the rest are healthier.`),
      actions(button(RESOURCES_SHOW_ALL_ACTION_ID, 'Show all', application)),
    );
  }
  return { text: plainFallback(title), blocks };
}

/** The "Show all" modal: every line, packed into sections (no buttons: they are on the message's lines). */
export function resourceTreeModal(application: string, lines: readonly ResourceViewLine[]) {
  const chunks = packLines(lines.map(resourceLineText), 2900, 98);
  return {
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: truncate(`Resources: ${application}`, 24) },
    close: { type: 'plain_text' as const, text: 'Close' },
    blocks: [section(summary(application, lines)), ...chunks.map((chunk) => section(chunk))],
  };
}
