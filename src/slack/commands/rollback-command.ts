/**
 * `/sync rollback <app> [ID] [--prune] [--break-glass "reason"]` — Argo CD's `argocd app rollback APPNAME [ID]`:
 * sync the Application to the exact revision of history entry ID (default: the newest Succeeded entry before the
 * current one; src/rollback), as a sync in every other respect — the `rollback` permission (one authorization,
 * evaluated once: the gate takes its verdict; ephemeral refusals), freeze windows (break-glass), approval, header
 * and thread. The header reads `Rollback to 3f2a1c9 (#41)`. Refused, as Argo CD does, for an Application with
 * automated sync (the next automated sync would undo it), and for a local-folder source (no revisions to return
 * to). Like Argo CD's rollback it does not prune unless `--prune` is given.
 */
import { parseArgs } from 'node:util';
import type { RollbackRef } from '../../domain/index.js';
import {
  promotionUndone,
  type RollbackChoice,
  rollbackOperation,
  rollbackRefusal,
  rollbackTargetOf,
  UNKNOWN_REVISION,
} from '../../rollback/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { rollbackTitle } from '../messages/sync-header-blocks.js';
import type { HistoryEntry } from '../ports.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { requestKeyOf } from './request-key.js';
import { requestPolicy } from './request-refusal.js';
import { acceptCommand } from './start-sync-command.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export async function rollbackCommand(ctx: CommandContext): Promise<void> {
  const parsed = parseRollbackArgs(ctx.args);
  if (!parsed.ok)
    return ctx.ack(ephemeral(commandErrorBlocks({ problem: parsed.problem, usage: USAGE.rollback })));
  const { application } = parsed;
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.rollback)));
  }
  const notRollbackable = rollbackRefusal(ctx.deps.catalog.describe(application));
  if (notRollbackable) return ctx.ack(ephemeral(textMessage(`🚫 ${notRollbackable} Nothing was queued.`)));
  const initiator = initiatorOf(ctx.command);
  const breakGlass =
    parsed.breakGlassReason === undefined ? {} : { breakGlassReason: parsed.breakGlassReason };
  // Who may roll back, from where, now (freeze windows) — asked before anything of the history is shown. The
  // target revision plays no part in it (allowedRevisions is not asked for a rollback), so the gate takes this
  // verdict for the entry's revision.
  const policy = await requestPolicy(ctx.deps, {
    application,
    operation: rollbackOperation(UNKNOWN_REVISION, parsed.prune),
    initiator,
    channel: ctx.command.channel_id,
    action: 'rollback',
    ...breakGlass,
  });
  if (policy.refusal) return ctx.ack(ephemeral(policy.refusal));
  let choice: RollbackChoice & { history: HistoryEntry[] };
  try {
    choice = await rollbackTargetOf(ctx.deps.queue, application, parsed.id);
  } catch (err) {
    await ctx.ack();
    return queueUnavailable(ctx, err);
  }
  if (!choice.ok) {
    const problem = `Cannot roll back ${application}: ${choice.problem}`;
    return ctx.ack(ephemeral(commandErrorBlocks({ problem: escapeMrkdwn(problem), usage: USAGE.rollback })));
  }
  const { entry } = choice;
  const operation = rollbackOperation(entry.revision, parsed.prune, entry.source, entry.sources);
  const undoes = promotionUndone(choice.history, entry.id);
  const rollback = { id: entry.id, revision: entry.revision, ...(undoes ? { undoes } : {}) };
  const key = requestKeyOf(ctx.command, application, operation, parsed.breakGlassReason);
  await acceptCommand(
    ctx,
    { application, operation, initiator, requestKey: `rollback-${key}`, rollback, ...breakGlass },
    rollbackAcceptedText(ctx.deps, application, rollback),
    policy.verdict,
  );
}

/**
 * The ack of an accepted rollback (`/sync rollback` and the Roll back button): `Got it: Rollback to 3f2a1c9 (#41) of
 * *web*.` and where to look next — the thread, or, where the environment requires approval, the approval request.
 */
export function rollbackAcceptedText(
  deps: Pick<CommandContext['deps'], 'approvals'>,
  application: string,
  rollback: RollbackRef,
): string {
  const next =
    deps.approvals?.needsApproval?.(application) === true
      ? 'It waits for approval: the request is the header below.'
      : 'Progress is in the thread under the header below.';
  return `Got it: ${rollbackTitle(rollback)} of *${escapeMrkdwn(application)}*. ${next}`;
}

type ParsedRollback =
  | { ok: true; application: string; id?: number; prune: boolean; breakGlassReason?: string }
  | { ok: false; problem: string };

function parseRollbackArgs(args: readonly string[]): ParsedRollback {
  let values: { prune?: boolean; 'break-glass'?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { prune: { type: 'boolean' }, 'break-glass': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    return { ok: false, problem: escapeMrkdwn((err as Error).message) };
  }
  const [application, idText, ...extra] = positionals;
  if (application === undefined) return { ok: false, problem: 'Which application? Name one.' };
  if (extra.length) return { ok: false, problem: `Too many words: ${escapeMrkdwn(extra.join(' '))}.` };
  const base = {
    ok: true as const,
    application,
    prune: values.prune ?? false,
    ...(values['break-glass'] === undefined ? {} : { breakGlassReason: values['break-glass'] }),
  };
  if (idText === undefined) return base;
  const id = /^#?([1-9][0-9]{0,14})$/.exec(idText)?.[1];
  if (!id) {
    return {
      ok: false,
      problem: `\`${escapeMrkdwn(idText)}\` is not a history id: use a number from /sync history.`,
    };
  }
  return { ...base, id: Number(id) };
}
