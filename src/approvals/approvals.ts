/**
 * createApprovals — the approval flow as one object: the port the `/sync` command calls before enqueueing, the
 * click handler the Slack actions call, the expiry sweeper and the audit view.
 */

import type { Initiator } from '../reporting/sync-reporter.js';
import type { ApprovalDeps } from './approval-deps.js';
import type { AuditRecord } from './audit-log.js';
import { expireDue } from './close-approval.js';
import { type DecisionClick, type DecisionResult, decideApproval } from './decide-approval.js';
import { enqueueStranded } from './enqueue-approved.js';
import { environmentFor } from './environment-resolver.js';
import {
  type DiffAsk,
  type LiveDiffResult,
  liveDiff,
  type RequestDiffResult,
  requestDiff,
} from './live-diff.js';
import { describePrincipals, isPrincipal } from './principal-mentions.js';
import {
  checkRequest,
  type RequestSyncResult,
  requestSync,
  type SyncRequestContext,
} from './request-sync.js';
import { resilientMessenger } from './resilient-messenger.js';

export type AuditView = { allowed: true; records: AuditRecord[] } | { allowed: false; reason: string };

export type PruneConfirmationAuthorization = { allowed: true } | { allowed: false; reason: string };

export interface Approvals {
  /** Policy check before enqueueing; posts the approval request when the environment needs one. */
  requestSync(ctx: SyncRequestContext): Promise<RequestSyncResult>;
  /**
   * The same policy check as requestSync (who may request, channels, revisions, freeze windows), with no side
   * effects: nothing is posted or audited. `reason` is the text requestSync would refuse with. Used to refuse before
   * showing anything (e.g. `/sync delete`'s plan); requestSync still decides when the request is made.
   */
  checkRequest(
    ctx: Pick<SyncRequestContext, 'application' | 'operation' | 'initiator' | 'channel' | 'breakGlassReason'>,
  ): Promise<{ allowed: true } | { allowed: false; reason: string }>;
  /** `/sync diff` and `/sync <app> --dry-run`: the live diff, for whoever may dry-run the Application. */
  liveDiff(ask: DiffAsk): Promise<LiveDiffResult>;
  /** The approval message's View diff button: the request's diff now, and whether it changed since. */
  requestDiff(click: {
    value: string | undefined;
    initiator: Initiator;
    channel: string;
  }): Promise<RequestDiffResult>;
  /** One Approve/Reject click (ephemeral explanations are sent by the flow itself). */
  decide(click: DecisionClick): Promise<DecisionResult>;
  /** Expire due requests now; resolves with how many were expired. */
  expireDue(): Promise<number>;
  /**
   * Queue approved requests a stopped bot never queued (approved ≥ 10 s ago, no job recorded); resolves with how
   * many were queued. Idempotent: the job id is derived from the request.
   */
  enqueueStranded(): Promise<number>;
  /** Every `intervalMs` (default 15 s): expire due requests, then queue stranded approved ones; returns stop(). */
  startExpirySweeper(intervalMs?: number, onError?: (error: unknown) => void): () => void;
  /** The audit log of `application`, newest first, for its environment's approvers. */
  audit(application: string, userId: string, limit?: number): Promise<AuditView>;
  /**
   * May `userId` confirm pruning of `application`'s `Prune=confirm` resources? In an environment that requires
   * approval only its approvers may (pruning is the destructive half of a sync); elsewhere anyone who may sync.
   * An allowed confirmation is written to the audit log (`prune-confirmed`) before the caller records it.
   */
  authorizePruneConfirmation(
    application: string,
    userId: string,
    channel: string,
  ): Promise<PruneConfirmationAuthorization>;
}

/**
 * Build the flow. `onDeliveryError` receives Slack errors that happen after a decision is stored (they do not
 * change the decision; default: ignored).
 */
export function createApprovals(
  given: ApprovalDeps,
  onDeliveryError: (error: unknown) => void = () => undefined,
): Approvals {
  const deps: ApprovalDeps = { ...given, messenger: resilientMessenger(given.messenger, onDeliveryError) };
  return {
    requestSync: (ctx) => requestSync(deps, ctx),
    async checkRequest(ctx) {
      const checked = await checkRequest(deps, ctx);
      if (checked.kind === 'unknown')
        return { allowed: false, reason: `No application named "${ctx.application}".` };
      if (checked.kind === 'open' || checked.decision.allowed) return { allowed: true };
      return { allowed: false, reason: checked.decision.reason };
    },
    liveDiff: (ask) => liveDiff(deps, ask),
    requestDiff: (click) => requestDiff(deps, click),
    decide: (click) => decideApproval(deps, click),
    expireDue: () => expireDue(deps),
    enqueueStranded: () => enqueueStranded(deps),
    startExpirySweeper(intervalMs = 15_000, onError = () => undefined) {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        expireDue(deps)
          .then(() => enqueueStranded(deps))
          .catch(onError)
          .finally(() => {
            running = false;
          });
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    async audit(application, userId, limit) {
      const app = deps.findApplication(application);
      if (!app) return { allowed: false, reason: `No application named "${application}".` };
      const env = environmentFor(deps.settings, app);
      const approvers = env?.settings.approvers;
      const open = !approvers || (approvers.users.length === 0 && approvers.groups.length === 0);
      if (!open && !(await isPrincipal(approvers, userId, deps.groups.isMemberOfAny).catch(() => false))) {
        return {
          allowed: false,
          reason: `Only ${describePrincipals(approvers)} may read the audit log of ${application}.`,
        };
      }
      return { allowed: true, records: await deps.audit.read(application, limit) };
    },
    async authorizePruneConfirmation(application, userId, channel) {
      const app = deps.findApplication(application);
      if (!app) return { allowed: false, reason: `No application named "${application}".` };
      const env = environmentFor(deps.settings, app);
      if (env?.settings.requireApproval) {
        const approvers = env.settings.approvers;
        const approver = await isPrincipal(approvers, userId, deps.groups.isMemberOfAny).catch(() => false);
        if (!approver) {
          return {
            allowed: false,
            reason: `${application} is in ${env.name}: only ${describePrincipals(approvers)} may confirm pruning.`,
          };
        }
      }
      await deps.audit.append({
        type: 'prune-confirmed',
        application,
        userId,
        channel,
        ...(env ? { environment: env.name } : {}),
      });
      return { allowed: true };
    },
  };
}
