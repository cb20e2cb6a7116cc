/**
 * A sync thread's durable outbox, as the thread's delivery sees it (./redis-thread-outbox.ts keeps it in Redis):
 * every reply a job's reporter wants in its thread is appended here, with its stable line key, before the reporter
 * returns to the engine (so before the engine persists its next OperationState); the header's latest state is
 * stored with a sequence number. One deliverer at a time — the job's current reporter, or the outbox sweeper once
 * the job has ended — holds the thread's lease, posts the entries in order and deletes each once the chat has it (or
 * once it is given up). A worker that dies with lines pending leaves them here for the job's next reporter (or the
 * sweeper).
 */
import type { ReportTarget } from '../queue/index.js';
import type { ChatMessage } from './chat.js';

/** Default lease of a deliverer, ms: renewed on every check; a dead deliverer's lease lapses after it. */
export const DEFAULT_LEASE_MS = 30_000;

/** One thread line to deliver. */
export interface OutboxLine {
  key: string;
  message: ChatMessage;
  broadcast: boolean;
  hookOutcome: boolean;
}

/** A line in the outbox, with its stream entry id. */
export interface OutboxEntry extends OutboxLine {
  id: string;
}

/** The header's latest state. `applied`: Slack shows this seq (chat.update answered). */
export interface StoredHeader {
  seq: number;
  message: ChatMessage;
  final: boolean;
  applied: boolean;
}

/** What an outbox holds when a deliverer opens it. */
interface OutboxSnapshot {
  target: ReportTarget | undefined;
  pending: OutboxEntry[];
  header: StoredHeader | undefined;
}

export interface ThreadOutbox {
  /**
   * Take the delivery lease — from whoever holds it when `takeover` (the job's new reporter: the old one is dead or
   * stale), only if free otherwise (the sweeper) — and read what is pending. `target` is recorded when given.
   * Resolves undefined when the lease is held by another deliverer. Throws when Redis is unreachable.
   */
  open(options: { target?: ReportTarget; takeover: boolean }): Promise<OutboxSnapshot | undefined>;
  /** Append `lines` in order; resolves to their entry ids. Throws when Redis is unreachable. */
  append(lines: readonly OutboxLine[]): Promise<string[]>;
  /**
   * Whether this deliverer still holds the lease (renewing it; a lease that lapsed while its holder was idle is
   * taken again — only another deliverer's token means no).
   */
  holds(): Promise<boolean>;
  /** Entries posted (or skipped: already in the thread): removed. */
  delivered(ids: readonly string[]): Promise<void>;
  /** Entries given up (Slack outage past the retention, permanent error): removed and counted. */
  dropped(ids: readonly string[]): Promise<void>;
  /** Lines given up but not yet said in the thread (total dropped, and how many are unannounced). */
  unannounced(): Promise<{ total: number; pending: number }>;
  /** The drops up to `total` were said in the thread. */
  announced(total: number): Promise<void>;
  /**
   * Store the header's new state (lease holder only; a non-final state after a final one is refused). Resolves to
   * its seq, or undefined when refused.
   */
  storeHeader(message: ChatMessage, final: boolean): Promise<number | undefined>;
  /** The header's latest stored state. */
  header(): Promise<StoredHeader | undefined>;
  /** Slack shows header state `seq`. */
  headerApplied(seq: number): Promise<void>;
  /**
   * Close the outbox if nothing is left (no entry, no unannounced drop, the latest header applied): its keys are
   * deleted and the lease released. Resolves whether it was closed; otherwise the lease is released for the sweeper.
   */
  finish(): Promise<boolean>;
}

/** The open outboxes of every job, for the sweeper. */
export interface ThreadOutboxes {
  /** Job ids whose outbox was last written at or before `before` (ms), oldest first, at most `limit`. */
  idle(before: number, limit: number): Promise<string[]>;
  /** The outbox of job `jobId` (a deliverer token of its own). */
  of(jobId: string): ThreadOutbox;
}

/** Consecutive lines with the same broadcast flag, in order: an alarming summary is posted on its own. */
export function broadcastRuns<T extends { broadcast: boolean }>(lines: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const line of lines) {
    const last = runs[runs.length - 1];
    if (last && last[0]!.broadcast === line.broadcast) last.push(line);
    else runs.push([line]);
  }
  return runs;
}
