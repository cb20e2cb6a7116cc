/**
 * Command recovery: `/sync <app>` requests that were acknowledged but whose bot died before it queued them (their
 * journal lease lapsed) are finished by any running bot — header posted (or the posted one reused), approval gate,
 * enqueued with the journal id as job id, so a command acknowledged once runs once. An acknowledged `/sync <appset>`
 * is started the same way: its header posted (or reused), its first step queued under the rollout id it was
 * acknowledged with (the job ids and approval keys derive from it), so it rolls out once. The sweep runs at start and
 * every `intervalMs`; replies meant for the requester go to them as ephemeral messages (the response_url of the
 * dead bot's request is not kept).
 */
import type { RespondArguments } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { JournalEntry } from '../ports.js';
import { findHeaderByKey } from '../reporters/header-delivery.js';
import type { SlackAppDeps } from './command-context.js';
import type { RecentRequests } from './recent-requests.js';
import { type AcceptedRollout, isAcceptedRollout, startRollout } from './rollout-command.js';
import { type AcceptedCommand, COMMAND_LEASE_MS, startJournaled } from './start-sync-command.js';

export interface CommandRecoveryOptions {
  client: WebClient;
  deps: SlackAppDeps;
  recent: RecentRequests;
  /** ms between sweeps; default 5000. */
  intervalMs?: number;
}

/** Start sweeping the journal; returns `stop`, which resolves once a running sweep finished. */
export function startCommandRecovery(options: CommandRecoveryOptions): () => Promise<void> {
  const { deps } = options;
  const journal = deps.journal;
  if (!journal) return async () => undefined;
  const leaseMs = deps.commandLeaseMs ?? COMMAND_LEASE_MS;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    const due = await journal.claimDue(leaseMs).catch((err: unknown) => {
      deps.logger?.debug({ err }, 'command journal not readable; next sweep tries again');
      return [];
    });
    for (const entry of due) {
      if (stopped) return;
      const recovered = isAcceptedRollout(entry.payload)
        ? recoverRollout(options, entry as JournalEntry<AcceptedRollout>)
        : recoverOne(options, entry as JournalEntry<AcceptedCommand>);
      await recovered.catch((err: unknown) =>
        deps.logger?.warn({ commandId: entry.id, err }, 'could not recover an accepted command'),
      );
    }
  };
  const tick = () => {
    running = running.then(sweep);
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? 5000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}

/** An accepted `/sync <appset>` whose bot stopped before it began: the rollout starts here, once. */
async function recoverRollout(
  options: CommandRecoveryOptions,
  entry: JournalEntry<AcceptedRollout>,
): Promise<void> {
  const { client, deps } = options;
  const { channel, userId, chain } = entry.payload;
  if (!deps.rollouts) {
    // A bot without rollouts wired (none in this deployment): leave the entry to one that has them.
    deps.logger?.warn({ commandId: entry.id }, 'an accepted rollout waits for a bot that can roll out');
    return;
  }
  deps.logger?.info(
    { commandId: entry.id, applicationSet: chain.applicationSet, headerPosted: entry.header !== undefined },
    'recovering an accepted rollout whose bot stopped before starting it',
  );
  const findHeader = () => findHeaderByKey(client, channel, entry.id, entry.recordedAt);
  await startRollout(
    { client, deps, respond: ephemeralTo(client, channel, userId) as never },
    entry,
    findHeader,
  );
}

/** Replies meant for the requester, as ephemeral messages (the dead bot's response_url is not kept). */
function ephemeralTo(client: WebClient, channel: string, userId: string) {
  return async (message: string | RespondArguments) => {
    const body = (typeof message === 'string' ? { text: message } : message) as {
      text?: string;
      blocks?: unknown[];
    };
    await client.chat.postEphemeral({
      channel,
      user: userId,
      text: body.text ?? '',
      ...(body.blocks ? { blocks: body.blocks as never } : {}),
    });
  };
}

async function recoverOne(
  options: CommandRecoveryOptions,
  entry: JournalEntry<AcceptedCommand>,
): Promise<void> {
  const { client, deps, recent } = options;
  const { channel, userId, input } = entry.payload;
  deps.logger?.info(
    { commandId: entry.id, application: input.application, headerPosted: entry.header !== undefined },
    'recovering an accepted command whose bot stopped before queueing it',
  );
  const respond = ephemeralTo(client, channel, userId);
  const findHeader = () => findHeaderByKey(client, channel, entry.id, entry.recordedAt);
  await startJournaled({ channel, client, deps, recent, respond: respond as never }, entry, findHeader);
}
