/**
 * The request policy asked before a sync-like request is acknowledged (`/sync <app>`, the drift notice's Sync
 * button): who may do it where (the one authorization, permissions.ts), revisions, freeze windows. A refused
 * request is answered to the requester only — no "Got it", no header in the channel, nothing remembered as a
 * duplicate — and the refusal is audited. An allowed request's verdict goes with it to the approval gate, which
 * takes it for the same ask instead of evaluating the policy a second time.
 */

import type { PolicyVerdict } from '../../environments/index.js';
import { textMessage } from '../messages/block.js';
import type { PolicyCheck, RequestPolicyQuery } from '../ports.js';
import type { SlackAppDeps } from './command-context.js';

/**
 * What the policy said: `refusal` (`🚫 <reason> Nothing was queued.`, for an ephemeral answer), or none and the
 * verdict to start the request with (SyncStartContext.verdict), so that the gate does not ask the policy again.
 */
export type RequestPolicyAnswer =
  | { refusal: ReturnType<typeof textMessage>; verdict?: undefined }
  | { refusal?: undefined; verdict?: PolicyVerdict };

export async function requestPolicy(
  deps: Pick<SlackAppDeps, 'approvals' | 'logger'>,
  request: RequestPolicyQuery,
): Promise<RequestPolicyAnswer> {
  const check = deps.approvals?.policy;
  if (!check) return {};
  let checked: PolicyCheck;
  try {
    checked = await check(request, { audit: true });
  } catch (err) {
    deps.logger?.warn({ err, application: request.application }, 'request policy not checked');
    const reason =
      'I could not check your permissions just now, so nothing was queued. Try again in a minute.';
    checked = { allowed: false, reason };
  }
  if (!checked.allowed) return { refusal: textMessage(`🚫 ${checked.reason} Nothing was queued.`) };
  return verdictOf(checked);
}

/** requestPolicy's refusal alone, for a request that is not started with the verdict (the gate then asks again). */
export async function requestRefusal(
  deps: Pick<SlackAppDeps, 'approvals' | 'logger'>,
  request: RequestPolicyQuery,
): Promise<ReturnType<typeof textMessage> | undefined> {
  return (await requestPolicy(deps, request)).refusal;
}

/** The verdict of an allowed answer, as a spread for SyncStartContext (`{}` without one). */
export function verdictOf(answer: { verdict?: PolicyVerdict }): { verdict?: PolicyVerdict } {
  return answer.verdict ? { verdict: answer.verdict } : {};
}
