/**
 * The Approve / Reject buttons: action ids and the button value. The value only *locates* the request
 * (`{"r":"<request id>","a":"<application>"}`); it is never trusted for who clicked or what is allowed, and the
 * decision checks that the request, the Application and the clicked message all agree.
 */
import { z } from 'zod';

export const APPROVE_ACTION_ID = 'wavesync_approve';
export const REJECT_ACTION_ID = 'wavesync_reject';
/** Opens the full live diff of the request in a modal (same value as Approve/Reject). */
export const VIEW_DIFF_ACTION_ID = 'wavesync_view_diff';

export interface ApprovalButtonValue {
  requestId: string;
  application: string;
}

const ValueSchema = z.strictObject({ r: z.string().uuid(), a: z.string().min(1).max(253) });

export function encodeApprovalButtonValue(value: ApprovalButtonValue): string {
  return JSON.stringify({ r: value.requestId, a: value.application });
}

/** The decoded value, or undefined when it is not one wavesync made. */
export function decodeApprovalButtonValue(raw: string | undefined): ApprovalButtonValue | undefined {
  if (raw === undefined || raw.length > 2000) return undefined;
  try {
    const parsed = ValueSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { requestId: parsed.data.r, application: parsed.data.a } : undefined;
  } catch {
    return undefined;
  }
}
