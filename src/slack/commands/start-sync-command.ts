/**
 * `/sync <app> [--revision R] [--prune] [--dry-run] [--resource GROUP:KIND:NAME]` — check the request policy (a
 * refusal is the ephemeral ack: nothing posted, nothing remembered), write the request to the command journal
 * (Redis), and only then ack (ephemeral "Got it"); post the header in the channel, enqueue with the header as the
 * report target (job id = journal id), then show the queue position. If Redis cannot take the request the ack says
 * "not queued" instead. A bot dying after the ack leaves the journal entry, which a recovering bot finishes
 * (./command-recovery.ts). Bad input is answered in the ack and nothing is posted or queued.
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { BotError, type SyncOperation } from '../../domain/index.js';
import type { DeletionApproval, PolicyVerdict } from '../../environments/index.js';
import { NO_APPROVAL_FLOW, type PersonSyncRequest, requestSync } from '../../requests/index.js';
import { ChannelPacer } from '../../thread/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks, notQueuedBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { type SyncHeaderState, syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { EnqueueResult, JournalEntry, SyncJob } from '../ports.js';
import { type HeaderDelivery, postSyncHeader } from '../reporters/header-delivery.js';
import { type CommandContext, ephemeral, initiatorOf, type SlackAppDeps } from './command-context.js';
import { liveDiffReply } from './diff-command.js';
import { type HeaderBase, headerViewOf } from './header-view.js';
import { localRevisionProblem } from './local-revision.js';
import { parseSyncArgs } from './parse-sync-args.js';
import { requestKeyOf } from './request-key.js';
import { requestPolicy } from './request-refusal.js';
import { missingResourcesProblem } from './selected-resources.js';

interface Header {
  channel: string;
  ts: string;
  base: HeaderBase;
}

export async function startSyncCommand(ctx: CommandContext, application: string): Promise<void> {
  const parsed = parseSyncArgs(ctx.args);
  if (!parsed.ok) return ctx.ack(ephemeral(commandErrorBlocks(parsed.problem)));
  const { command } = ctx;
  const policy = await requestPolicy(ctx.deps, {
    application,
    operation: parsed.operation,
    initiator: initiatorOf(command),
    channel: command.channel_id,
    ...reasonOf(parsed),
  });
  if (policy.refusal) return ctx.ack(ephemeral(policy.refusal));
  const noRevisions = localRevisionProblem(ctx.deps.catalog, application, parsed.operation);
  if (noRevisions) return ctx.ack(ephemeral(commandErrorBlocks({ problem: noRevisions })));
  const missing = await missingResourcesProblem(ctx.deps, application, parsed.operation);
  if (missing) return ctx.ack(ephemeral(commandErrorBlocks({ problem: missing })));
  const requestKey = requestKeyOf(command, application, parsed.operation, parsed.breakGlassReason);
  const input: SyncStartInput = {
    application,
    operation: parsed.operation,
    initiator: initiatorOf(command),
    requestKey,
    ...reasonOf(parsed),
  };
  const awaitsApproval = ctx.deps.approvals?.needsApproval?.(application) === true;
  const outcome = await acceptCommand(
    ctx,
    input,
    acceptedText(application, parsed.operation, awaitsApproval),
    policy.verdict,
  );
  if (outcome) await showDryRunDiff(ctx, application, parsed.operation, outcome);
}

/**
 * The accepted command's common path (`/sync <app>`, `/sync rollback`): claim its request key (a repeat within the
 * window is answered "Already requested"), write it to the command journal, ack with `accepted`, then start it
 * with the policy's `verdict` from before the ack (kept in memory, not in the journal: a recovery asks again).
 * Resolves with the outcome, or undefined when nothing was started (a repeat, or the journal unavailable).
 */
export async function acceptCommand(
  ctx: CommandContext,
  input: SyncStartInput,
  accepted: string,
  verdict?: PolicyVerdict,
): Promise<SyncStartOutcome | undefined> {
  const { command } = ctx;
  const { application, requestKey } = input;
  if (ctx.recent.claim(requestKey)) {
    await ctx.ack(ephemeral(alreadyRequested(application)));
    return undefined;
  }
  const journal = ctx.deps.journal;
  const startCtx = { ...ctx, channel: command.channel_id, ...(verdict ? { verdict } : {}) };
  if (!journal) {
    await ctx.ack(ephemeral(textMessage(accepted)));
    return startSync(startCtx, input);
  }
  const id = randomUUID();
  const entry: AcceptedCommand = { channel: command.channel_id, userId: command.user_id, input };
  try {
    await journal.record(id, entry, ctx.deps.commandLeaseMs ?? COMMAND_LEASE_MS);
  } catch (err) {
    ctx.recent.release(requestKey);
    ctx.deps.logger?.warn({ application, err }, 'sync not queued: the command journal is unavailable');
    await ctx.ack(ephemeral(notQueuedBlocks(application, 'Redis unavailable, try again')));
    return undefined;
  }
  await ctx.ack(ephemeral(textMessage(accepted)));
  return startJournaled(startCtx, { id, payload: entry, recordedAt: Date.now() });
}

/** A dry run also shows the requester what a real sync would change (the live diff, ephemeral). */
async function showDryRunDiff(
  ctx: CommandContext,
  application: string,
  operation: SyncOperation,
  outcome: SyncStartOutcome,
): Promise<void> {
  if (operation.dryRun && outcome !== 'refused') {
    await ctx.respond(ephemeral(await liveDiffReply(ctx, application, operation)));
  }
}

/** What the command journal keeps of an accepted `/sync <app>` (the payload of its entry). */
export interface AcceptedCommand {
  channel: string;
  /** Who typed it (ephemeral replies of a recovery go to them). */
  userId: string;
  input: SyncStartInput;
}

/** Lease of a journal entry while its bot handles it (ms, renewed every third); default 30 000. */
export const COMMAND_LEASE_MS = 30_000;

/**
 * Run an accepted command to its end with its journal entry leased: post the header (unless `entry.header` says it
 * was posted), requestSync with job id = entry id (a repeat is a duplicate of the same job, never a second one),
 * then forget the entry. A process dying inside leaves the entry to a recovery.
 */
export async function startJournaled(
  ctx: SyncStartContext,
  entry: JournalEntry<AcceptedCommand>,
  findHeader?: DurableStart['findHeader'],
): Promise<SyncStartOutcome> {
  const journal = ctx.deps.journal!;
  const leaseMs = ctx.deps.commandLeaseMs ?? COMMAND_LEASE_MS;
  const renew = setInterval(
    () => void journal.renew(entry.id, leaseMs).catch(() => undefined),
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  try {
    const outcome = await startSync(ctx, entry.payload.input, {
      jobId: entry.id,
      ...(entry.header ? { header: entry.header } : {}),
      ...(findHeader ? { findHeader } : {}),
      onHeader: (header) => journal.attachHeader(entry.id, header),
    });
    await journal.complete(entry.id);
    return outcome;
  } finally {
    clearInterval(renew);
  }
}

/**
 * Where a sync is being started from: the channel, and how to talk back to the person (ephemeral); `verdict`: the
 * request policy's, asked before the ack (requestRefusal), which the gate takes instead of asking again.
 */
export type SyncStartContext = Pick<CommandContext, 'respond' | 'client' | 'deps' | 'recent'> & {
  channel: string;
  verdict?: PolicyVerdict;
};

/** `Already requested: …` — the answer to a repeat of the same request within the dedup window. */
function alreadyRequested(application: string) {
  return textMessage(`Already requested: your sync of *${escapeMrkdwn(application)}* is in this channel.`);
}

/**
 * What became of a started sync: `queued` (or deduplicated onto the job its request key already queued),
 * `pending` approval (the approval flow queues it once approved), `refused` by the environment's request rules,
 * or `not_queued` (the header could not be posted, or the queue was unavailable).
 */
export type SyncStartOutcome = 'queued' | 'pending' | 'refused' | 'not_queued';

/**
 * Post the header in `ctx.channel`, hand the request to requestSync (src/requests: the gate — policy, approval —
 * then the queue), and show the position — what `/sync <app>` does once the request is acknowledged (also the drift notice's Sync button, and `/sync delete`'s Delete button:
 * `deletion` makes it a deletion job, its plan is what the approvers see). `input.requestKey` must already be
 * claimed in `ctx.recent`; it is released when nothing was queued (`not_queued`).
 */
export async function startSync(
  ctx: SyncStartContext,
  input: SyncStartInput,
  durable?: DurableStart,
): Promise<SyncStartOutcome> {
  const { deps } = ctx;
  const { application, initiator, requestKey } = input;
  const asked = askedOf(input);
  const base = headerViewOf(
    deps.catalog,
    asked.deletion
      ? { application, initiator, deletion: asked.deletion.request }
      : { application, initiator, ...asked },
  );
  const found = durable?.header ?? (await durable?.findHeader?.());
  const header = found ? { ...found, base } : await postHeader(ctx, base, durable?.jobId);
  if (!header) {
    ctx.recent.release(requestKey);
    return 'not_queued';
  }
  if (!durable?.header) await durable?.onHeader?.({ channel: header.channel, ts: header.ts });
  const request: PersonSyncRequest = {
    application,
    initiator: base.initiator,
    target: { channel: header.channel, threadTs: header.ts },
    requestKey,
    ...asked,
  };
  const context = {
    header: { channel: header.channel, ts: header.ts },
    ...reasonOf(input),
    ...(input.trigger ? { trigger: input.trigger } : {}),
    ...(input.fromBotMessage ? { fromBotMessage: true } : {}),
    ...(ctx.verdict ? { verdict: ctx.verdict } : {}),
  };
  const outcome = await requestSync(
    // No approval flow wired (no environments configured): the request is queued as asked, as it always was.
    { queue: deps.queue, gate: deps.approvals ?? NO_APPROVAL_FLOW },
    { request, context, ...(durable ? { jobId: durable.jobId } : {}) },
  );
  switch (outcome.kind) {
    case 'pending':
      return 'pending';
    case 'refused':
      // A refused request is not a duplicate of anything: the same command may be sent again (e.g. --break-glass).
      ctx.recent.release(requestKey);
      return 'refused';
    case 'not-queued':
      ctx.recent.release(requestKey);
      await notQueued(ctx, header, outcome.error);
      return 'not_queued';
    case 'queued':
      await showQueued(ctx, header, outcome.result);
      return 'queued';
  }
}

/**
 * What startSync starts: the request (without its target, the header is; never an App of Apps child nor a rollout's
 * step) and what the approvers see: a deletion comes with the plan the requester confirmed.
 */
export type SyncStartInput = SyncStart | (StartCommon & DeletionAsked);

/** What startSync starts for a sync. */
export type SyncStart = StartCommon & SyncAsked;

interface StartCommon extends Pick<SyncJob, 'application' | 'initiator' | 'requestKey'> {
  breakGlassReason?: string;
  /** What started it when not a typed command (audited), e.g. `drift notice Sync button`. */
  trigger?: string;
  /** Started by a button on a message the bot posted (the Roll back button), not a typed command. */
  fromBotMessage?: boolean;
}

/** A sync's operation, and the rollback or promotion it is. */
type SyncAsked = Pick<SyncJob, 'operation' | 'rollback' | 'promotion' | 'deletion'>;

/** A deletion (it syncs nothing) and the plan the requester confirmed. */
interface DeletionAsked {
  operation?: never;
  deletion: DeletionApproval;
}

/** What `input` asks, without the start's own fields: its sync or its deletion. */
function askedOf(input: SyncStartInput): SyncAsked | DeletionAsked {
  if (input.deletion) return { deletion: input.deletion };
  return {
    operation: input.operation,
    ...(input.rollback ? { rollback: input.rollback } : {}),
    ...(input.promotion ? { promotion: input.promotion } : {}),
  };
}

/** A journaled start: the job id to enqueue with, the header if already posted, and where to record it once posted. */
export interface DurableStart {
  jobId: string;
  header?: { channel: string; ts: string };
  /** A recovery looks the header up by its client key (a dead bot may have posted it without recording it). */
  findHeader?(): Promise<{ channel: string; ts: string } | undefined>;
  onHeader?(header: { channel: string; ts: string }): Promise<void>;
}

function reasonOf(parsed: { breakGlassReason?: string }): { breakGlassReason?: string } {
  return parsed.breakGlassReason ? { breakGlassReason: parsed.breakGlassReason } : {};
}

/**
 * The ack of an accepted `/sync <app>`: "Got it: syncing …", or, when the environment requires approval, "Got it:
 * … is waiting for approval" with how to withdraw it.
 */
export function acceptedText(application: string, op: SyncOperation, awaitsApproval = false): string {
  const selective = op.resources?.length
    ? ' Selective sync: only the named resources, and hooks do not run.'
    : '';
  const app = escapeMrkdwn(application);
  if (awaitsApproval) {
    return `Got it: *${app}* is waiting for approval. The request is the header below; it is queued once approved. \`/sync cancel ${app}\` withdraws it.${selective}`;
  }
  return `Got it: syncing *${app}*. Progress is in the thread under the header below.${selective}`;
}

/**
 * Post the header through the paced, patient header delivery (rate limits and outages delay it; only Slack's own
 * refusal fails it, answered with a reason a person can act on).
 */
async function postHeader(
  ctx: SyncStartContext,
  base: HeaderBase,
  commandId?: string,
): Promise<Header | undefined> {
  const channel = ctx.channel;
  const message = syncHeaderBlocks({ ...base, state: { kind: 'received' } });
  const delivery = ctx.deps.headerDelivery ?? processHeaderDelivery(ctx.client, ctx.deps.logger);
  const posted = await postSyncHeader(delivery, channel, message, commandId);
  if (posted.ok) return { channel, ts: posted.ts, base };
  const text = `❌ I could not post in this channel (${posted.reason}), so nothing was queued.${posted.hint ?? ''}`;
  await ctx.respond(ephemeral(textMessage(text)));
  return undefined;
}

let processPacer: ChannelPacer | undefined;

/** Without a wired delivery (tests of the Slack app alone): the listener's client, paced in this process. */
function processHeaderDelivery(client: WebClient, logger: SlackAppDeps['logger']): HeaderDelivery {
  processPacer ??= new ChannelPacer();
  return { client, pacer: processPacer, ...(logger ? { logger } : {}) };
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
