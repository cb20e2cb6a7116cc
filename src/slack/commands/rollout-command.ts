/**
 * `/sync <appset>` — roll an ApplicationSet out (src/app-of-apps/rollout-driver.ts): its generated Applications step
 * by step as its `strategy: RollingSync` says (without one, every Application at once, as Argo CD's AllAtOnce). The
 * request policy is checked for every Application the rollout will sync before anything is posted (a refusal names
 * the Application; nothing starts); Applications whose environment requires approval are marked, and each gets its
 * own approval request in the rollout's thread when its step reaches it. The accepted rollout is written to the
 * command journal (Redis) before Slack is told "Got it", as `/sync <app>` is: a bot that dies after the ack leaves
 * the entry, and the next bot carries it out once (./command-recovery.ts). Then one header in the channel — the
 * rollout's thread, where every step and Application has its line — and the first step starts.
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Initiator } from '../../domain/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { rolloutHeaderBlocks } from '../messages/rollout-blocks.js';
import type { JournalEntry, RolloutChain } from '../ports.js';
import { HEADER_EVENT_TYPE } from '../reporters/header-delivery.js';
import { type CommandContext, ephemeral, initiatorOf, type SlackAppDeps } from './command-context.js';
import { requestRefusal } from './request-refusal.js';
import { COMMAND_LEASE_MS } from './start-sync-command.js';

export async function rolloutCommand(ctx: CommandContext, applicationSet: string): Promise<void> {
  const { command, deps } = ctx;
  const plan = deps.rollouts?.plan(applicationSet);
  if (!plan) return;
  const set = escapeMrkdwn(applicationSet);
  if (ctx.args.length > 0) {
    const problem = `A rollout takes no flags: \`/sync ${set}\` syncs the Applications of ApplicationSet ${set} step by step.`;
    return ctx.ack(
      ephemeral(commandErrorBlocks({ problem, hint: 'Sync one of them with `/sync <app> [flags]`.' })),
    );
  }
  const applications = plan.steps.flatMap((s) => s.applications);
  if (applications.length === 0) {
    const problem = `ApplicationSet ${set} has no Application that a step of its rollout selects: nothing to roll out.`;
    return ctx.ack(ephemeral(commandErrorBlocks({ problem })));
  }
  const initiator = initiatorOf(command);
  const operation = { prune: false, dryRun: false, syncOptions: [] };
  // Each Application's policy is asked now, so a refusal stops the rollout before its ack; its verdict is not
  // carried on, because each step is requested when the one before has ended — minutes or hours later — and the
  // gate asks again then, on purpose (a freeze window may have started meanwhile), as journal recovery does.
  for (const application of applications) {
    const refusal = await requestRefusal(deps, {
      application,
      operation,
      initiator,
      channel: command.channel_id,
    });
    if (refusal) {
      return ctx.ack(
        ephemeral(
          textMessage(`Rollout of ${set} not started: *${escapeMrkdwn(application)}*: ${refusal.text}`),
        ),
      );
    }
  }
  // Slack re-sends a slow command: the same trigger starts one rollout.
  const claim = `rollout:${command.trigger_id}`;
  if (ctx.recent.claim(claim)) return ctx.ack();
  const approval = applications.filter((a) => deps.approvals?.needsApproval?.(a) === true);
  const rolloutId = randomUUID();
  const accepted: AcceptedRollout = {
    kind: 'rollout',
    channel: command.channel_id,
    userId: command.user_id,
    initiator,
    chain: { applicationSet, rolloutId, steps: plan.steps, approval, unassigned: plan.unassigned },
  };
  // Durable before "Got it": a bot that dies after the ack leaves the entry, and the next bot carries it out.
  if (deps.journal) {
    try {
      await deps.journal.record(rolloutId, accepted, deps.commandLeaseMs ?? COMMAND_LEASE_MS);
    } catch (err) {
      ctx.recent.release(claim);
      deps.logger?.warn({ applicationSet, err }, 'rollout not started: the command journal is unavailable');
      return ctx.ack(ephemeral(textMessage(`Rollout of ${set} not started: Redis unavailable, try again.`)));
    }
  }
  await ctx.ack(
    ephemeral(
      textMessage(
        `Got it: rolling out ${set} in ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} (${applications.length} Applications). Follow it in the thread.`,
      ),
    ),
  );
  const entry = { id: rolloutId, payload: accepted, recordedAt: Date.now() };
  await startRollout({ client: ctx.client, deps, respond: ctx.respond }, entry);
}

/** What the command journal keeps of an accepted `/sync <appset>` (its entry's id is the rollout's id). */
export interface AcceptedRollout {
  kind: 'rollout';
  channel: string;
  /** Who typed it (ephemeral replies of a recovery go to them). */
  userId: string;
  initiator: Initiator;
  /** The rollout as acknowledged (its steps as generated then), without its thread. */
  chain: Omit<RolloutChain, 'target'>;
}

/** Whether a journal entry's payload is an accepted rollout (else an accepted `/sync <app>`). */
export function isAcceptedRollout(payload: unknown): payload is AcceptedRollout {
  return (payload as { kind?: unknown } | null)?.kind === 'rollout';
}

/**
 * Carry out an accepted rollout with its journal entry leased (the bot that acknowledged it, or a recovering bot):
 * the header in the channel — posted with the entry's id as its client key, or the one a dead bot posted (`header`
 * recorded, or found by that key) — then the first step (idempotent: the rollout's job ids and approval keys derive
 * from its id), then the entry is forgotten. A process dying inside leaves the entry to the next bot.
 */
export async function startRollout(
  ctx: {
    client: WebClient;
    deps: SlackAppDeps;
    respond: CommandContext['respond'];
  },
  entry: JournalEntry<AcceptedRollout>,
  findHeader?: () => Promise<{ channel: string; ts: string } | undefined>,
): Promise<void> {
  const { client, deps } = ctx;
  const { channel, initiator, chain: accepted } = entry.payload;
  const { applicationSet } = accepted;
  const set = escapeMrkdwn(applicationSet);
  const journal = deps.journal;
  const leaseMs = deps.commandLeaseMs ?? COMMAND_LEASE_MS;
  const renew =
    journal &&
    setInterval(
      () => void journal.renew(entry.id, leaseMs).catch(() => undefined),
      Math.max(100, Math.floor(leaseMs / 3)),
    );
  try {
    let header = entry.header ?? (await findHeader?.());
    if (!header) {
      const message = rolloutHeaderBlocks({
        applicationSet,
        userId: initiator.userId,
        steps: accepted.steps,
        approval: accepted.approval,
        unassigned: accepted.unassigned,
      });
      try {
        const posted = await client.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks,
          metadata: { event_type: HEADER_EVENT_TYPE, event_payload: { command_id: entry.id } },
        });
        if (posted.ts) header = { channel, ts: posted.ts };
      } catch (err) {
        deps.logger?.warn({ err, applicationSet }, 'rollout header not posted');
      }
      if (!header) {
        await ctx.respond(
          ephemeral(textMessage(`Rollout of ${set} not started: Slack did not take its header. Try again.`)),
        );
        await journal?.complete(entry.id);
        return;
      }
      await journal?.attachHeader(entry.id, header);
    }
    const chain: RolloutChain = { ...accepted, target: { channel: header.channel, threadTs: header.ts } };
    try {
      await deps.rollouts!.start(chain, initiator);
    } catch (err) {
      deps.logger?.warn({ err, applicationSet }, 'rollout not started');
      const why = err instanceof Error ? err.message : String(err);
      await client.chat
        .postMessage({
          channel: header.channel,
          thread_ts: header.ts,
          text: `❌ Rollout of ${set} not started: ${escapeMrkdwn(why)}`,
        })
        .catch(() => undefined);
    }
    await journal?.complete(entry.id);
  } finally {
    if (renew) clearInterval(renew);
  }
}
