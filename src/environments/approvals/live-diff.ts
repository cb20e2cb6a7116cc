/**
 * The live diff for people: `/sync diff <app>` (and `/sync <app> --dry-run`) and the approval message's View diff
 * button. Who may see it: whoever may dry-run the Application — the request policy `/sync <app> --dry-run` goes
 * through (checkRequest: the `dry-run` permission of authorizeAction in permissions.ts, then revisions and freeze
 * windows). The diff itself is the SyncPreviewer's
 * (server-side dry run vs live, masked).
 */

import type { Initiator, SyncOperation } from '../../domain/index.js';
import { checkRequest, type RequestPolicyDeps } from '../check-request.js';
import { decodeApprovalButtonValue } from './approval-button.js';
import type { ApprovalDeps } from './approval-deps.js';
import type { SyncPreview } from './sync-preview.js';

export interface DiffAsk {
  application: string;
  operation: SyncOperation;
  initiator: Initiator;
  channel: string;
}

type DiffAccess = { allowed: true } | { allowed: false; reason: string };

/** May `ask.initiator` see the diff of `ask.application` from `ask.channel`? (The dry-run permission.) */
async function authorizeDiff(deps: RequestPolicyDeps, ask: DiffAsk): Promise<DiffAccess> {
  const checked = await checkRequest(deps, { ...ask, operation: { ...ask.operation, dryRun: true } });
  if (checked.kind === 'unknown')
    return { allowed: false, reason: `No application named "${ask.application}".` };
  if (checked.kind === 'open' || checked.decision.allowed) return { allowed: true };
  return { allowed: false, reason: checked.decision.reason };
}

export type LiveDiffResult = { allowed: true; preview: SyncPreview } | { allowed: false; reason: string };

/** The diff of syncing `ask.application` with `ask.operation`, for someone allowed to dry-run it. */
export async function liveDiff(deps: ApprovalDeps, ask: DiffAsk): Promise<LiveDiffResult> {
  const access = await authorizeDiff(deps, ask);
  if (!access.allowed) return access;
  const app = deps.findApplication(ask.application)!;
  return { allowed: true, preview: await deps.preview(app, ask.operation) };
}

export type RequestDiffResult =
  | { allowed: true; application: string; preview: SyncPreview; changedSinceRequest: boolean }
  | { allowed: false; reason: string };

/**
 * View diff on an approval message: the request the button value locates (the value is only a locator), the
 * diff at the request's revision as it is now, and whether it differs from the one the message shows.
 */
export async function requestDiff(
  deps: ApprovalDeps,
  click: { value: string | undefined; initiator: Initiator; channel: string },
): Promise<RequestDiffResult> {
  const located = decodeApprovalButtonValue(click.value);
  const record = located ? await deps.store.get(located.requestId) : undefined;
  if (!record || record.request.application !== located?.application) {
    return { allowed: false, reason: 'This button does not belong to a wavesync approval request.' };
  }
  const { request } = record;
  // The request's own operation (its symbolic revision: the policy checks it as /sync did); a different resolved
  // revision now is itself a change since the request.
  const ask = { application: request.application, operation: request.operation, ...click };
  const result = await liveDiff(deps, ask);
  if (!result.allowed) return result;
  const now = result.preview.diffSummary?.fingerprint;
  const changed =
    result.preview.revision !== request.revision ||
    (request.diff !== undefined && now !== undefined && now !== request.diff.fingerprint);
  return {
    allowed: true,
    application: request.application,
    preview: result.preview,
    changedSinceRequest: changed,
  };
}
