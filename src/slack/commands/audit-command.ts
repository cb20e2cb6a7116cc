/**
 * `/sync audit <app>` — the newest entries of the Application's audit log (requests, refusals, decisions,
 * expiries, cancels, outcomes with Slack ids), for whoever the `audit` permission allows (default: approvers). Returns the ephemeral reply.
 */
import type { ApprovalFlow } from '../../environments/index.js';
import { auditLogBlocks } from '../messages/audit-log-blocks.js';
import { type SlackMessage, textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { type CommandContext, ephemeral } from './command-context.js';

const AUDIT_USAGE = '/sync audit <app>';
/** Entries shown per request. */
const AUDIT_LIMIT = 25;

export interface AuditCommandInput {
  /** Words after `audit`. */
  args: readonly string[];
  /** The requesting user (`command.user_id`). */
  userId: string;
  /** Where the command was typed (`command.channel_id`). */
  channel?: string;
  /** The approval flow; undefined when approvals are not configured. */
  approvals: Pick<ApprovalFlow, 'audit'> | undefined;
}

/** The `/sync audit` subcommand: ack, then answer ephemerally (the log is read from Redis). */
export async function auditSubcommand(ctx: CommandContext): Promise<void> {
  await ctx.ack();
  const reply = await auditCommand({
    args: ctx.args,
    userId: ctx.command.user_id,
    channel: ctx.command.channel_id,
    approvals: ctx.deps.approvalFlow,
  });
  await ctx.respond(ephemeral(reply));
}

export async function auditCommand(input: AuditCommandInput): Promise<SlackMessage> {
  const [application, ...extra] = input.args;
  if (application === undefined || extra.length > 0) {
    const problem =
      application === undefined ? 'Which application? Name one.' : `Unexpected: ${extra.join(' ')}`;
    return commandErrorBlocks({ problem, usage: AUDIT_USAGE });
  }
  if (!input.approvals)
    return textMessage('The audit log needs approvals to be configured (environments in wavesync.yaml).');
  const view = await input.approvals.audit(application, input.userId, AUDIT_LIMIT, input.channel);
  return view.allowed ? auditLogBlocks(application, view.records) : textMessage(view.reason);
}
