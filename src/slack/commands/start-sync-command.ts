/**
 * `/sync <app> [--revision R] [--prune] [--dry-run] [--resource GROUP:KIND:NAME]` — ack at once (ephemeral),
 * post the header in the channel, enqueue with the header as the report target, then show the queue position.
 * Bad input is answered in the ack and nothing is posted or queued.
 */
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { DeletionPlan } from '../../apps/application-deletion.js';
import { BotError, type SyncOperation } from '../../domain/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks, notQueuedBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { type SyncHeaderState, syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { EnqueueResult, SyncRequest } from '../ports.js';
import { type CommandContext, ephemeral, initiatorOf, type SlackAppDeps } from './command-context.js';
import { type HeaderBase, headerViewOf } from './header-view.js';
import { parseSyncArgs } from './parse-sync-args.js';
import { requestKeyOf } from './request-key.js';

interface Header {
  channel: string;
  ts: string;
  base: HeaderBase;
}

export async function startSyncCommand(ctx: CommandContext, application: string): Promise<void> {
  const parsed = parseSyncArgs(ctx.args);
  if (!parsed.ok) return ctx.ack(ephemeral(commandErrorBlocks(parsed.problem)));
  const { command, deps } = ctx;
  const requestKey = requestKeyOf(command, application, parsed.operation);
  if (ctx.recent.claim(requestKey)) {
    return ctx.ack(
      ephemeral(
        textMessage(`Already requested: your sync of *${escapeMrkdwn(application)}* is in this channel.`),
      ),
    );
  }
  await ctx.ack(ephemeral(textMessage(acceptedText(application, parsed.operation))));
  const base = headerViewOf(deps.catalog, {
    application,
    operation: parsed.operation,
    initiator: initiatorOf(command),
  });
  const io: SubmitContext = {
    channel: command.channel_id,
    client: ctx.client,
    respond: ctx.respond,
    deps,
    release: () => ctx.recent.release(requestKey),
  };
  const request = { application, operation: parsed.operation, initiator: base.initiator, requestKey };
  await submitRequest(io, base, request, reasonOf(parsed));
}

/** Where and for whom a request is submitted (a slash command, or a button click such as `/sync delete`'s). */
export interface SubmitContext {
  channel: string;
  client: WebClient;
  respond: RespondFn;
  deps: SlackAppDeps;
  /** Forget the request key (nothing was queued, so the same request may be made again at once). */
  release(): void;
}

/**
 * Post the header in `io.channel`, hand the request to the approval gate (when configured), then enqueue with the
 * header as the report target and show the queue position. Used by `/sync <app>` and `/sync delete <app>`.
 */
export async function submitRequest(
  io: SubmitContext,
  base: HeaderBase,
  request: Omit<SyncRequest, 'target'>,
  gateContext: { breakGlassReason?: string; deletionPlan?: DeletionPlan },
): Promise<void> {
  const header = await postHeader(io, base);
  if (!header) return io.release();
  const full: SyncRequest = { ...request, target: { channel: header.channel, threadTs: header.ts } };
  if (io.deps.approvals) {
    const context = { header: { channel: header.channel, ts: header.ts }, ...gateContext };
    if ((await io.deps.approvals.gate(full, context)) === 'pending') return;
  }
  let result: EnqueueResult;
  try {
    result = await io.deps.queue.enqueueSync(full);
  } catch (err) {
    io.release();
    return notQueued(io, header, err);
  }
  await showQueued(io, header, result);
}

function reasonOf(parsed: { breakGlassReason?: string }): { breakGlassReason?: string } {
  return parsed.breakGlassReason ? { breakGlassReason: parsed.breakGlassReason } : {};
}

function acceptedText(application: string, op: SyncOperation): string {
  const selective = op.resources?.length
    ? ' Selective sync: only the named resources, and hooks do not run.'
    : '';
  return `Got it: syncing *${escapeMrkdwn(application)}*. Progress is in the thread under the header below.${selective}`;
}

async function postHeader(ctx: SubmitContext, base: HeaderBase): Promise<Header | undefined> {
  const channel = ctx.channel;
  const message = syncHeaderBlocks({ ...base, state: { kind: 'received' } });
  try {
    const posted = await ctx.client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    return { channel, ts: posted.ts!, base };
  } catch (err) {
    const error = (err as { data?: { error?: string } }).data?.error ?? (err as Error).message;
    ctx.deps.logger?.warn({ channel, error }, 'could not post the sync header');
    const hint =
      error === 'not_in_channel' || error === 'channel_not_found'
        ? ' Invite me with `/invite @wavesync` and try again.'
        : '';
    await ctx.respond(
      ephemeral(
        textMessage(
          `❌ I could not post in this channel (${escapeMrkdwn(error)}), so nothing was queued.${hint}`,
        ),
      ),
    );
    return undefined;
  }
}

async function notQueued(ctx: SubmitContext, header: Header, err: unknown): Promise<void> {
  const reason = err instanceof BotError ? err.message : 'the queue is unavailable';
  ctx.deps.logger?.warn({ application: header.base.application, err }, 'sync not queued');
  await updateHeader(ctx, header, { kind: 'not_queued', reason });
  await ctx.respond(ephemeral(notQueuedBlocks(header.base.application, reason)));
}

async function showQueued(ctx: SubmitContext, header: Header, result: EnqueueResult): Promise<void> {
  if (result.duplicate) {
    const original = await ctx.deps.queue.jobStatus(result.jobId);
    const target = original?.target;
    if (!target || target.threadTs === header.ts) return;
    const link = await ctx.client.chat
      .getPermalink({ channel: target.channel, message_ts: target.threadTs })
      .then((r) => r.permalink)
      .catch(() => undefined);
    return updateHeader(ctx, header, { kind: 'duplicate', permalink: link });
  }
  // Position 0: the worker switches the header to Running at once; only a wait is worth an update.
  if (result.position > 0) {
    header.base = { ...header.base, jobId: result.jobId };
    await updateHeader(ctx, header, { kind: 'queued', position: result.position, ahead: result.ahead });
  }
}

async function updateHeader(ctx: SubmitContext, header: Header, state: SyncHeaderState): Promise<void> {
  const message = syncHeaderBlocks({ ...header.base, state });
  await ctx.client.chat
    .update({ channel: header.channel, ts: header.ts, text: message.text, blocks: message.blocks })
    .catch((err: unknown) => ctx.deps.logger?.warn({ err }, 'could not update the sync header'));
}
