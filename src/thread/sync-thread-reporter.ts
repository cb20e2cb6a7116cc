/**
 * The sync thread reporter — the SyncReporter that tells a sync's story (./thread-story.ts) in its chat thread:
 * one reply per wave start and completion and per hook outcome, a final summary with the health observed after the
 * sync (broadcast to the channel when it alarms), and the header (the thread's root) updated in place.
 *
 * Delivery is paced and coalesced: replies wait for the channel's slot (≈1/s, shared ChannelPacer) and for a
 * short gathering window, then pending replies go out as one message; header updates are throttled (≤1/s) and
 * only the latest state is sent. Calls per operation stay within waves + hooks + 3 (CallBudget); hook outcomes
 * and the summary are never dropped. `report()` never blocks on the chat; `close()` drains.
 * Restart-safe: a new reporter for the same ReportTarget continues the same thread and header; each reply has a
 * stable key, and the ThreadPoster (with the job's PostedLines) posts each line once.
 * Durable: with the job's ThreadOutbox, every reply (the summary included) is appended to the outbox before
 * `report()` resolves — so before the engine persists its next state — and a reporter that opens the outbox of a
 * job resumed after a kill delivers what the dead worker left pending first; a line the resumed engine re-emits is
 * not appended again. `close()` closes the outbox once everything is delivered (else the sweeper finishes it).
 */
import type { SyncEvent } from '../domain/index.js';
import { Wakeup } from '../engine/index.js';
import type { ReportTarget, ResumedFrom, SyncReporter } from '../queue/index.js';
import { CallBudget } from './call-budget.js';
import { ChannelPacer } from './channel-pacer.js';
import type { ChatTransport } from './chat.js';
import type { DeliveryLogger } from './delivery.js';
import type { PostedLines } from './posted-lines.js';
import { nextStep, type Step } from './reporter-schedule.js';
import type { SyncThreadWording } from './sync-thread-wording.js';
import { broadcastRuns, type OutboxLine, type ThreadOutbox } from './thread-outbox.js';
import { ThreadPoster } from './thread-poster.js';
import { type RetryAttempt, type StoryLine, ThreadStory } from './thread-story.js';

export interface SyncThreadReporterOptions {
  /** A chat whose rate-limited calls are rejected (createSlackWebClient), so the pacer decides when to retry. */
  chat: ChatTransport;
  /** The words of this sync's thread (the chat's presentation of its header and lines). */
  wording: SyncThreadWording;
  target: ReportTarget;
  /** The job's id: its lines' scope in the thread (default the thread itself). */
  jobId?: string;
  /** The job deletes the Application (`/sync delete`). */
  deletion?: boolean;
  /** Shared per process; default a private pacer with `intervalMs` 1000. */
  pacer?: ChannelPacer;
  /** Minimum ms between header updates; default 1000. */
  headerIntervalMs?: number;
  /** ms to gather events before posting so bursts coalesce into one reply; default 250. */
  coalesceMs?: number;
  logger?: DeliveryLogger;
  /** The job's record of posted lines (redisPostedLines); without it a resumed job may repeat lines. */
  posted?: PostedLines;
  /**
   * Called for each message given up (chat outage past 10 min, permanent error) with the thread lines it held: the
   * dropped-messages and dropped-lines metrics.
   */
  onDropped?: (what: 'thread reply' | 'header update', lines: number) => void;
  /** The job's durable outbox (redisThreadOutbox); without it lines pending in a dying worker are lost. */
  outbox?: ThreadOutbox;
  /** How long one message is retried through a chat outage (ms); default 10 min. */
  retentionMs?: number;
  /**
   * Set when BullMQ runs the job again after a transient error (the Kubernetes API unreachable, attempts left):
   * this attempt (2 = the first retry), the job's attempts, and the previous attempt's error (job.failedReason).
   */
  retry?: RetryAttempt;
  /**
   * With an outbox: once every line is in it, close() hands the rest of the delivery here and returns, so the job
   * ends (and its worker slot frees) while the chat's pace still delays its thread; the worker awaits these when it
   * shuts down (bounded), and the outbox sweeper finishes what a dead worker left. Without it close() waits.
   */
  detach?: (delivery: Promise<void>) => void;
  /**
   * Set when this delivery took over an earlier one's turn: whether that delivery ran on this same worker (its
   * lock lapsed) or on another one (dead, frozen past its lock, shut down). Unset reads as another worker.
   */
  resumedFrom?: ResumedFrom;
}

export interface SyncThreadReporter extends SyncReporter {
  /** Chat calls made so far (429 answers included). */
  readonly calls: number;
  /** The call budget of the current operation (waves + hooks + 3; Infinity before OperationStarted). */
  readonly budget: number;
}

/** A reporter for one job. */
export function createSyncThreadReporter(options: SyncThreadReporterOptions): SyncThreadReporter {
  return new ThreadReporter(options);
}

/** A line waiting for delivery, with its outbox entry once appended. */
interface PendingReply extends StoryLine {
  id?: string;
}

class ThreadReporter implements SyncThreadReporter {
  private readonly o: SyncThreadReporterOptions;
  private readonly pacer: ChannelPacer;
  private readonly headerIntervalMs: number;
  private readonly coalesceMs: number;
  private readonly callBudget = new CallBudget();
  private readonly story: ThreadStory;
  private readonly poster: ThreadPoster;
  private readonly replies: PendingReply[] = [];
  /** Replies queued by the last event, appended to the outbox before they join `replies`. */
  private readonly incoming: PendingReply[] = [];
  private readonly outbox: ThreadOutbox | undefined;
  private opened: Promise<void> | undefined;
  private firstReplyAt = 0;
  private headerDirtyAt: number | undefined;
  private lastHeaderAt = 0;
  private summaryPosted = false;
  private closed = false;
  private loop: Promise<void> | undefined;
  private readonly signal = new Wakeup();

  constructor(options: SyncThreadReporterOptions) {
    this.o = options;
    this.pacer = options.pacer ?? new ChannelPacer();
    this.headerIntervalMs = options.headerIntervalMs ?? 1000;
    this.coalesceMs = options.coalesceMs ?? 250;
    this.outbox = options.outbox;
    this.story = new ThreadStory({
      wording: options.wording,
      chat: options.chat,
      budget: this.callBudget,
      deletion: options.deletion ?? false,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.resumedFrom ? { resumedFrom: options.resumedFrom } : {}),
    });
    this.poster = new ThreadPoster({
      chat: options.chat,
      target: options.target,
      pacer: this.pacer,
      budget: this.callBudget,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.outbox ? { outbox: options.outbox } : {}),
      ...(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs }),
      ...(options.posted ? { posted: options.posted } : {}),
      ...(options.onDropped ? { onDropped: options.onDropped } : {}),
      ...(options.jobId ? { scope: options.jobId } : {}),
    });
  }

  get calls(): number {
    return this.callBudget.calls;
  }

  get budget(): number {
    return this.callBudget.max;
  }

  async report(event: SyncEvent): Promise<void> {
    await this.ensureOpen();
    const now = Date.now();
    const { lines, headerChanged } = this.story.tell(event, now);
    if (headerChanged) this.headerDirtyAt ??= now;
    this.incoming.push(...lines);
    if (this.story.summaryDue(false)) this.buildSummary();
    await this.enqueue();
    this.loop ??= this.run();
    this.signal.notify();
  }

  async close(): Promise<void> {
    await this.ensureOpen();
    this.closed = true;
    this.buildSummary();
    await this.enqueue();
    this.loop ??= this.run();
    this.signal.notify();
    if (this.outbox && this.o.detach) {
      // The job ends now: its header's final state must be in the outbox too (not only the lines), or a worker
      // dying before its run loop stores it leaves the sweeper a non-final header to apply (thread-faults' kill trial).
      await this.storeFinalHeader();
      // Every line is in the outbox (durable): the chat's pace delays the thread, not the end of the job.
      this.o.detach(this.drain(this.loop));
    } else await this.drain(this.loop);
  }

  /** The summary line, once the operation ended: appended with the event that made it due (or at close). */
  private buildSummary(): void {
    const line = this.story.summaryLine();
    if (line) this.incoming.push(line);
  }

  /** Store the operation's final header state in the outbox (nothing is sent: the run loop or the sweeper sends it). */
  private async storeFinalHeader(): Promise<void> {
    const header = this.story.finalHeader();
    if (!header || !this.outbox) return;
    try {
      await this.outbox.storeHeader(header, true);
    } catch (err) {
      this.o.logger?.warn({ err: (err as Error).message }, 'final header state not stored');
    }
  }

  private async drain(loop: Promise<void>): Promise<void> {
    await loop;
    // Lines given up and not yet said (no post succeeded after them): say it now, through the outage's retention.
    await this.poster.announceDrops();
    if (this.poster.stale || !this.outbox) return;
    // Everything delivered: the outbox is deleted; lines or a header left (the chat still down) stay for the sweeper.
    await this.outbox
      .finish()
      .catch((err: Error) => this.o.logger?.warn({ err: err.message }, 'thread outbox not closed'));
  }

  private ensureOpen(): Promise<void> {
    this.opened ??= this.open();
    return this.opened;
  }

  /** Take the thread's outbox over and queue what a previous worker left undelivered, first. */
  private async open(): Promise<void> {
    if (!this.outbox) return;
    try {
      const snapshot = await this.outbox.open({ target: this.o.target, takeover: true });
      for (const e of snapshot?.pending ?? []) if (this.story.inherit(e.key)) this.push({ ...e });
    } catch (err) {
      this.o.logger?.warn(
        { err: (err as Error).message },
        'thread outbox unreadable; pending lines may be lost',
      );
    }
  }

  /** Append the replies of the last event to the outbox, then queue them for delivery. */
  private async enqueue(): Promise<void> {
    const lines = this.incoming.splice(0);
    if (lines.length === 0) return;
    let ids: string[] = [];
    try {
      ids = (await this.outbox?.append(lines.map(outboxLine))) ?? [];
    } catch (err) {
      this.o.logger?.warn({ err: (err as Error).message }, 'thread lines not in the outbox');
    }
    lines.forEach((line, i) => {
      this.push(ids[i] ? { ...line, id: ids[i] } : line);
    });
  }

  private push(reply: PendingReply): void {
    if (this.replies.length === 0) this.firstReplyAt = Date.now();
    this.replies.push(reply);
  }

  private async run(): Promise<void> {
    for (;;) {
      if (this.poster.stale) return; // another deliverer took the thread: it delivers the outbox
      const step = this.decide();
      if (step.kind === 'done') return;
      if (step.kind === 'wait') await this.signal.sleep(step.ms);
      else await this.perform(step.kind);
    }
  }

  private decide(): Step {
    const finalSummary = this.story.summaryDue(this.closed) && !this.summaryPosted;
    return nextStep({
      now: Date.now(),
      closed: this.closed,
      slotInMs: this.pacer.msUntilFree(this.o.target.channel),
      coalesceMs: this.coalesceMs,
      replies:
        this.replies.length === 0
          ? undefined
          : { since: this.firstReplyAt, mandatory: this.replies.some((r) => r.hookOutcome) },
      header:
        this.headerDirtyAt === undefined
          ? undefined
          : {
              since: this.headerDirtyAt,
              nextAllowedAt: this.lastHeaderAt + this.headerIntervalMs,
              final: this.summaryPosted,
            },
      summary: finalSummary ? { alarming: this.story.alarming() } : undefined,
      summaryPosted: this.summaryPosted,
      canSpendOptional: this.callBudget.canSpendOptional(),
    });
  }

  private async perform(kind: 'replies' | 'summary' | 'header'): Promise<void> {
    if (kind === 'header') return this.updateHeader();
    const taken = this.replies.splice(0);
    if (kind === 'replies') return this.post(taken);
    this.story.summaryTold();
    this.summaryPosted = true;
    this.headerDirtyAt = Date.now();
    return this.post(taken);
  }

  /** Post `replies` in order: runs of plain replies and broadcast ones (an alarming summary) as separate posts. */
  private async post(replies: PendingReply[]): Promise<void> {
    for (const run of broadcastRuns(replies)) {
      const ids = new Map(run.flatMap((r) => (r.id ? [[r.key, r.id] as const] : [])));
      await this.poster.reply(
        run.map((r) => ({ message: r.message, keys: [r.key] })),
        run.filter((r) => r.hookOutcome).length,
        run[0]!.broadcast,
        ids,
      );
    }
  }

  private async updateHeader(): Promise<void> {
    this.headerDirtyAt = undefined;
    this.lastHeaderAt = Date.now();
    const header = this.story.header(this.summaryPosted, this.lastHeaderAt);
    await this.poster.updateHeader(header, this.summaryPosted);
  }
}

function outboxLine(r: PendingReply): OutboxLine {
  return { key: r.key, message: r.message, broadcast: r.broadcast, hookOutcome: r.hookOutcome };
}
