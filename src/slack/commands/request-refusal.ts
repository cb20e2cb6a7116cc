/**
 * The request policy asked before a sync-like request is acknowledged (`/sync <app>`, the drift notice's Sync
 * button): who may do it where (the one authorization, permissions.ts), revisions, freeze windows. A refused
 * request is answered to the requester only — no "Got it", no header in the channel, nothing remembered as a
 * duplicate — and the refusal is audited. The approval gate decides again when the request is made.
 */
import { textMessage } from '../messages/block.js';
import type { RequestPolicyQuery } from '../ports.js';
import type { SlackAppDeps } from './command-context.js';

/** The refusal (`🚫 <reason> Nothing was queued.`, for an ephemeral answer), or undefined when the request may go on. */
export async function requestRefusal(
  deps: Pick<SlackAppDeps, 'approvals' | 'logger'>,
  request: RequestPolicyQuery,
): Promise<ReturnType<typeof textMessage> | undefined> {
  const check = deps.approvals?.refusal;
  if (!check) return undefined;
  let reason: string | undefined;
  try {
    reason = await check(request, { audit: true });
  } catch (err) {
    deps.logger?.warn({ err, application: request.application }, 'request policy not checked');
    reason = 'I could not check your permissions just now, so nothing was queued. Try again in a minute.';
  }
  return reason === undefined ? undefined : textMessage(`🚫 ${reason} Nothing was queued.`);
}
