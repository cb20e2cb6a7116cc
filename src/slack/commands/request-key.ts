/**
 * The idempotency key of a `/sync <app>` request: the same person asking for the same thing (the whole command:
 * revision, flags, resources and the `--break-glass` reason) in the same channel and workspace. Slack's re-deliveries (X-Slack-Retry-Num) and double deliveries with a fresh trigger id
 * map to one key; the queue deduplicates a key within its window (60 s), so a genuine repeat later queues again.
 */
import { createHash } from 'node:crypto';
import type { BlockAction, SlashCommand } from '@slack/bolt';
import type { SyncOperation } from '../../domain/index.js';

export function requestKeyOf(
  command: Pick<SlashCommand, 'team_id' | 'channel_id' | 'user_id'>,
  application: string,
  operation: SyncOperation,
  breakGlassReason?: string,
): string {
  const what = JSON.stringify([
    command.team_id,
    command.channel_id,
    command.user_id,
    application,
    normalized(operation),
    ...(breakGlassReason === undefined ? [] : [{ breakGlass: breakGlassReason }]),
  ]);
  return `slack:${createHash('sha256').update(what).digest('hex').slice(0, 40)}`;
}

function normalized(op: SyncOperation): unknown {
  const resources = (op.resources ?? [])
    .map((r) => `${r.group}:${r.kind}:${r.namespace ?? ''}/${r.name}`)
    .sort();
  return [op.revision ?? '', op.prune, op.dryRun, resources, [...op.syncOptions].sort()];
}

/**
 * The idempotency key of a `/sync delete` confirmation click: the same person confirming the same plan of the same
 * Application in the same channel (a double click queues one deletion).
 */
export function requestKeyOfDeletion(
  body: Pick<BlockAction, 'user' | 'team'>,
  channel: string,
  application: string,
  planHash: string,
): string {
  const what = JSON.stringify([body.team?.id ?? '', channel, body.user.id, 'delete', application, planHash]);
  return `slack-delete:${createHash('sha256').update(what).digest('hex').slice(0, 40)}`;
}

/**
 * The key of a drift notice (`<workspace>/<channel>/<message ts>` and the Application, hashed): the same for every
 * click on its Sync button, whoever clicks. It names the notice's claim (DriftNoticeClaims) and, prefixed
 * `slack-drift:`, the request key of the one sync the notice queues.
 */
export function driftNoticeKeyOf(
  team: string,
  channel: string,
  messageTs: string,
  application: string,
): string {
  const what = JSON.stringify([team, channel, messageTs, application]);
  return createHash('sha256').update(what).digest('hex').slice(0, 40);
}

/**
 * The idempotency key of a Promote click: the same person promoting the same revision to the same stage from the
 * same channel (a double click queues one promotion).
 */
export function requestKeyOfPromotion(
  body: Pick<BlockAction, 'user' | 'team'>,
  channel: string,
  stage: string,
  revision: string,
): string {
  const what = JSON.stringify([body.team?.id ?? '', channel, body.user.id, 'promote', stage, revision]);
  return `slack-promote:${createHash('sha256').update(what).digest('hex').slice(0, 40)}`;
}
