/**
 * `/sync <app> [--revision R] [--prune] [--dry-run] [--resource GROUP:KIND:NAME]` — ack at once (ephemeral),
 * post the header in the channel, enqueue with the header as the report target, then show the queue position.
 * Bad input is answered in the ack and nothing is posted or queued.
 */
import type { DeletionPlan } from '../../apps/application-deletion.js';
import { BotError, type SyncOperation } from '../../domain/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks, notQueuedBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { type SyncHeaderState, syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { EnqueueResult, SyncRequest } from '../ports.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { liveDiffReply } from './diff-command.js';
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
  const { command } = ctx;
  const requestKey = requestKeyOf(command, application, parsed.operation);
  if (ctx.recent.claim(requestKey)) {
    return ctx.ack(ephemeral(alreadyRequested(application)));
  }
  await ctx.ack(ephemeral(textMessage(acceptedText(application, parsed.operation))));
  const outcome = await startSync(
    { ...ctx, channel: command.channel_id },
    {
      application,
      operation: parsed.operation,
      initiator: initiatorOf(command),
      requestKey,
      ...reasonOf(parsed),
    },
  );
  // A dry run also shows the requester what a real sync would change (the live diff, ephemeral).
  if (parsed.operation.dryRun && outcome !== 'refused') {
    await ctx.respond(ephemeral(await liveDiffReply(ctx, application, parsed.operation)));
  }
}

/** Where a sync is being started from: the channel, and how to talk back to the person (ephemeral). */
export type SyncStartContext = Pick<CommandContext, 'respond' | 'client' | 'deps' | 'recent'> & {
  channel: string;
};

/** `Already requested: …` — the answer to a repeat of the same request within the dedup window. */
export function alreadyRequested(application: string) {
  return textMessage(`Already requested: your sync of *${escapeMrkdwn(application)}* is in this channel.`);
}

/**
 * What became of a started sync: `queued` (or deduplicated onto the job its request key already queued),
 * `pending` approval (the approval flow queues it once approved), `refused` by the environment's request rules,
 * or `not_queued` (the header could not be posted, or the queue was unavailable).
 */
export type SyncStartOutcome = 'queued' | 'pending' | 'refused' | 'not_queued';

/**
 * Post the header in `ctx.channel`, pass the approval gate, enqueue, and show the position — what `/sync <app>`
 * does once the request is acknowledged (also the drift notice's Sync button, and `/sync delete`'s Delete button:
 * `deletion` makes it a deletion job, `deletionPlan` is what the approvers see). `input.requestKey` must already be
 * claimed in `ctx.recent`; it is released when nothing was queued (`not_queued`).
 */
export async function startSync(
  ctx: SyncStartContext,
  input: Omit<SyncRequest, 'target'> & { breakGlassReason?: string; deletionPlan?: DeletionPlan },
): Promise<SyncStartOutcome> {
  const { deps } = ctx;
  const { application, operation, initiator, requestKey, deletion } = input;
  const base = headerViewOf(deps.catalog, {
    application,
    operation,
    initiator,
    ...(deletion ? { deletion } : {}),
  });
  const header = await postHeader(ctx, base);
  if (!header) {
    ctx.recent.release(requestKey);
    return 'not_queued';
  }
  const request: SyncRequest = {
    application,
    operation,
    initiator: base.initiator,
    target: { channel: header.channel, threadTs: header.ts },
    requestKey,
    ...(deletion ? { deletion } : {}),
  };
  if (deps.approvals) {
    const plan = input.deletionPlan;
    const context = {
      header: { channel: header.channel, ts: header.ts },
      ...reasonOf(input),
      ...(plan ? { deletionPlan: plan } : {}),
    };
    const gated = await deps.approvals.gate(request, context);
    if (gated !== 'proceed') return gated;
  }
  let result: EnqueueResult;
  try {
    result = await deps.queue.enqueueSync(request);
  } catch (err) {
    ctx.recent.release(requestKey);
    await notQueued(ctx, header, err);
    return 'not_queued';
  }
  await showQueued(ctx, header, result);
  return 'queued';
}

function reasonOf(parsed: { breakGlassReason?: string }): { breakGlassReason?: string } {
  return parsed.breakGlassReason ? { breakGlassReason: parsed.breakGlassReason } : {};
}

export function acceptedText(application: string, op: SyncOperation): string {
  const selective = op.resources?.length
    ? ' Selective sync: only the named resources, and hooks do not run.'
    : '';
  return `Got it: syncing *${escapeMrkdwn(application)}*. Progress is in the thread under the header below.${selective}`;
}

async function postHeader(ctx: SyncStartContext, base: HeaderBase): Promise<Header | undefined> {
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

async function notQueued(ctx: SyncStartContext, header: Header, err: unknown): Promise<void> {
  const reason = err instanceof BotError ? err.message : 'the queue is unavailable';
  ctx.deps.logger?.warn({ application: header.base.application, err }, 'sync not queued');
  await updateHeader(ctx, header, { kind: 'not_queued', reason });
  await ctx.respond(ephemeral(notQueuedBlocks(header.base.application, reason)));
}

async function showQueued(ctx: SyncStartContext, header: Header, result: EnqueueResult): Promise<void> {
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

async function updateHeader(ctx: SyncStartContext, header: Header, state: SyncHeaderState): Promise<void> {
  const message = syncHeaderBlocks({ ...header.base, state });
  await ctx.client.chat
    .update({ channel: header.channel, ts: header.ts, text: message.text, blocks: message.blocks })
    .catch((err: unknown) => ctx.deps.logger?.warn({ err }, 'could not update the sync header'));
}
