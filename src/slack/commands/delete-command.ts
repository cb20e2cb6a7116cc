/**
 * `/sync delete <app> [--cascade=foreground|background|orphan] [--break-glass "reason"]` — delete an Application
 * and (with a resources finalizer) its resources, as `argocd app delete` does. Nothing happens at once: the
 * requester gets an ephemeral plan (what goes per wave, what is kept and why, the `Delete=confirm` objects) with
 * Delete / Cancel. Delete (src/slack/actions/delete-action.ts) re-plans — a plan that changed is shown again instead — then posts
 * the header and goes through the approval gate like a sync (production needs a second user's Approve; freeze
 * windows refuse; the audit log records it) before the job is queued in the Application's line.
 *
 * `--cascade` mirrors Argo CD's CLI (`--cascade` + `--propagation-policy`): `foreground` / `background` set that
 * resources finalizer before deleting, `orphan` removes it (only the Application goes). Without the flag the
 * Application's own finalizers decide, as when it is deleted with kubectl.
 */
import { parseArgs } from 'node:util';
import { type DeletionPlan, planHash } from '../../deletion/index.js';
import { BotError, DELETION_CASCADES, type DeletionCascade, reasonForPeople } from '../../domain/index.js';
import { textMessage } from '../messages/block.js';
import { type CommandProblem, commandErrorBlocks } from '../messages/command-error-blocks.js';
import { deletionConfirmationBlocks } from '../messages/deletion-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { type CommandContext, ephemeral, initiatorOf, type SlackAppDeps } from './command-context.js';
import { breakGlassReasonOf } from './parse-sync-args.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

/** What the confirmation's buttons carry: the request, and a hash of the plan the requester saw. */
export interface DeletionButtonValue {
  application: string;
  cascade?: DeletionCascade;
  breakGlassReason?: string;
  planHash: string;
}

export async function deleteCommand(ctx: CommandContext): Promise<void> {
  const parsed = parseDeleteArgs(ctx.args);
  if ('problem' in parsed) return ctx.ack(ephemeral(commandErrorBlocks(parsed)));
  const { deps } = ctx;
  if (!(await isKnownApplication(deps.catalog, parsed.application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(deps.catalog, parsed.application, USAGE.delete)));
  }
  if (!deps.deletions) {
    const problem = 'Deleting Applications is not available: this bot has no cluster access to plan it.';
    return ctx.ack(ephemeral(commandErrorBlocks({ problem })));
  }
  await ctx.ack(ephemeral(textMessage(`Planning the deletion of *${escapeMrkdwn(parsed.application)}*…`)));
  // The same request policy the Delete click goes through: who may not delete sees no plan and no button.
  const checked = await deps.approvals?.policy?.({
    application: parsed.application,
    action: 'delete',
    initiator: initiatorOf(ctx.command),
    channel: ctx.command.channel_id,
    ...(parsed.breakGlassReason ? { breakGlassReason: parsed.breakGlassReason } : {}),
  });
  if (checked?.allowed === false) return void (await ctx.respond(ephemeral(textMessage(checked.reason))));
  const planned = await planOrExplain(deps, parsed.application, parsed.cascade);
  if (typeof planned === 'string') {
    return void (await ctx.respond(ephemeral(commandErrorBlocks({ problem: planned }))));
  }
  await ctx.respond(ephemeral(confirmationOf(planned, parsed)));
}

/** The plan, or a sentence saying why it could not be made. */
export async function planOrExplain(
  deps: Pick<SlackAppDeps, 'deletions' | 'logger'>,
  application: string,
  cascade: DeletionCascade | undefined,
): Promise<DeletionPlan | string> {
  try {
    if (!deps.deletions) throw new BotError('invalid_config', 'this bot has no cluster access');
    return await deps.deletions.plan(application, cascade);
  } catch (err) {
    deps.logger?.warn({ application, err }, 'could not plan a deletion');
    const reason = reasonForPeople(err);
    return `Could not plan the deletion of *${escapeMrkdwn(application)}*: ${escapeMrkdwn(reason)}. Nothing was deleted.`;
  }
}

/** The ephemeral confirmation of `plan` for this request. */
export function confirmationOf(
  plan: DeletionPlan,
  request: Omit<DeletionButtonValue, 'planHash'>,
): ReturnType<typeof deletionConfirmationBlocks> {
  return deletionConfirmationBlocks(
    plan,
    encodeDeletionButtonValue({ ...request, planHash: planHash(plan) }),
  );
}

export function encodeDeletionButtonValue(value: DeletionButtonValue): string {
  return JSON.stringify(value);
}

/** The button's value, or undefined when it is not one of ours (values are untrusted). */
export function decodeDeletionButtonValue(raw: string | undefined): DeletionButtonValue | undefined {
  try {
    const v = JSON.parse(raw ?? '') as Partial<DeletionButtonValue>;
    if (typeof v.application !== 'string' || typeof v.planHash !== 'string') return undefined;
    if (v.cascade !== undefined && !DELETION_CASCADES.includes(v.cascade)) return undefined;
    if (v.breakGlassReason !== undefined && typeof v.breakGlassReason !== 'string') return undefined;
    return {
      application: v.application,
      planHash: v.planHash,
      ...(v.cascade ? { cascade: v.cascade } : {}),
      ...(v.breakGlassReason ? { breakGlassReason: v.breakGlassReason } : {}),
    };
  } catch {
    return undefined;
  }
}

type ParsedDelete =
  | { application: string; cascade?: DeletionCascade; breakGlassReason?: string }
  | CommandProblem;

/**
 * `<app> [--cascade=foreground|background|orphan] [--break-glass "reason"]`. Both flags take their value after `=`
 * or as the next word (`--cascade foreground`); a flag given twice is refused (which one was meant is a guess).
 */
export function parseDeleteArgs(args: readonly string[]): ParsedDelete {
  const fail = (problem: string): CommandProblem => ({ problem, usage: USAGE.delete });
  const [application, ...rest] = args;
  if (application === undefined) return fail('Which application should I delete?');
  if (application.startsWith('-'))
    return fail(
      `Name the application first, then flags: \`/sync delete guestbook ${escapeMrkdwn(application)}\`.`,
    );
  let values: { cascade?: string[]; 'break-glass'?: string[] };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: {
        cascade: { type: 'string', multiple: true },
        'break-glass': { type: 'string', multiple: true },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    const flag = /'(-[^' ]+)/.exec((err as Error).message)?.[1] ?? '';
    return fail(
      `Bad flag \`${escapeMrkdwn(flag)}\`: /sync delete takes --cascade=foreground|background|orphan and --break-glass "reason".`,
    );
  }
  if (positionals.length > 0)
    return fail(`Unexpected \`${escapeMrkdwn(positionals.join(' '))}\`: /sync delete takes one application.`);
  for (const flag of ['cascade', 'break-glass'] as const) {
    const given = values[flag] ?? [];
    if (given.length > 1)
      return fail(
        `--${flag} is given ${given.length} times (${given.map((v) => `\`${escapeMrkdwn(v)}\``).join(', ')}): give it once.`,
      );
  }
  const cascade = values.cascade?.[0];
  if (cascade !== undefined && !DELETION_CASCADES.includes(cascade as DeletionCascade)) {
    return fail(`--cascade must be foreground, background or orphan (not \`${escapeMrkdwn(cascade)}\`).`);
  }
  const reason = breakGlassReasonOf(values['break-glass']?.[0], 'INC-42 cleanup');
  if (typeof reason === 'object') return fail(reason.problem);
  return {
    application,
    ...(cascade ? { cascade: cascade as DeletionCascade } : {}),
    ...(reason ? { breakGlassReason: reason } : {}),
  };
}
