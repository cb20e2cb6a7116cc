/**
 * The sync thread reporter's scheduling rule as a pure function: given what is pending, the channel's pacing slot,
 * the header throttle and the call budget, what to do next (post replies, post the summary, update the header,
 * wait, or stop). Order of precedence:
 * 1. the final summary (after a flush of pending replies when the summary will be broadcast);
 * 2. pending replies or a header update, whichever is ready first (replies win ties, to keep thread order),
 *    optional ones only while the budget allows;
 * 3. once closed, everything left is flushed without gathering, then `done`.
 */

export type Step =
  | { kind: 'replies' | 'summary' | 'header' | 'done' }
  | { kind: 'wait'; ms: number | undefined };

export interface ScheduleInput {
  now: number;
  closed: boolean;
  /** ms until the channel's next post slot. */
  slotInMs: number;
  /** Gathering window in ms. */
  coalesceMs: number;
  /** Pending replies: since when, and whether a hook outcome is among them. */
  replies: { since: number; mandatory: boolean } | undefined;
  /** A pending header change: since when, when the throttle allows the next update, whether it is the final one. */
  header: { since: number; nextAllowedAt: number; final: boolean } | undefined;
  /** Set when the summary is due and not yet posted. */
  summary: { alarming: boolean } | undefined;
  summaryPosted: boolean;
  canSpendOptional: boolean;
}

export function nextStep(s: ScheduleInput): Step {
  if (s.summary) {
    const kind = s.summary.alarming && s.replies ? 'replies' : 'summary';
    return s.slotInMs > 0 ? { kind: 'wait', ms: s.slotInMs } : { kind };
  }
  const urgent = s.closed || s.summaryPosted;
  const options: { kind: 'replies' | 'header'; wait: number }[] = [];
  if (s.replies && (urgent || s.replies.mandatory || s.canSpendOptional)) {
    const gather = urgent ? 0 : s.replies.since + s.coalesceMs - s.now;
    options.push({ kind: 'replies', wait: Math.max(0, gather, s.slotInMs) });
  }
  if (s.header && (urgent || s.header.final || s.canSpendOptional)) {
    const gather = urgent ? 0 : s.header.since + s.coalesceMs - s.now;
    options.push({ kind: 'header', wait: Math.max(0, gather, s.header.nextAllowedAt - s.now) });
  }
  if (options.length === 0) return s.closed ? { kind: 'done' } : { kind: 'wait', ms: undefined };
  const best = options.reduce((a, b) => (b.wait < a.wait ? b : a));
  return best.wait > 0 ? { kind: 'wait', ms: best.wait } : { kind: best.kind };
}
