/**
 * The progress port. A worker gets one SyncReporter per job; the engine's SyncEvents go to it in order.
 * The queue carries only an opaque ReportTarget, so it never learns that Slack exists.
 */
import type { Initiator, SyncEvent } from '../domain/index.js';

export type { Initiator };

/** Where a sync's progress is reported: a Slack channel and the thread's root message ts (the header). */
export interface ReportTarget {
  channel: string;
  /** ts of the header message; replies go in its thread and it is updated in place. */
  threadTs: string;
}

/** Receives every step of one operation. Implementations must not throw for delivery problems they can retry. */
export interface SyncReporter {
  report(event: SyncEvent): Promise<void>;
  /** Flush anything coalesced and release resources; called once after the last event. */
  close(): Promise<void>;
}

/** A reporter that forwards to several reporters in order (e.g. Slack and metrics). */
export function fanOutReporter(reporters: readonly SyncReporter[]): SyncReporter {
  return {
    async report(event) {
      for (const r of reporters) await r.report(event);
    },
    async close() {
      for (const r of reporters) await r.close();
    },
  };
}
