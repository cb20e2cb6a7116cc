/**
 * SlackReporter — the SyncReporter that tells a sync's story in its Slack thread: one reply per wave start and
 * completion and per hook outcome, a final summary with the health observed after the sync (broadcast to the
 * channel when it alarms), and the header (the thread's root) updated in place.
 *
 * Delivery is paced and coalesced: replies wait for the channel's slot (≈1/s, shared ChannelPacer) and for a
 * short gathering window, then pending replies go out as one message; header updates are throttled (≤1/s) and
 * only the latest state is sent. Calls per operation stay within waves + hooks + 3 (CallBudget); hook outcomes
 * and the summary are never dropped. `report()` never blocks on Slack; `close()` drains.
 * Restart-safe: a new reporter for the same ReportTarget continues the same thread and header. Each reply has a
 * stable key — the event's kind and identity (phase, wave, task, outcome) and its occurrence number — so a
 * resumed worker whose engine re-emits WaveStarted / WaveCompleted produces the same keys, and the ThreadPoster
 * (with the job's PostedLines) posts each line once.
 * Durable: with the job's ThreadOutbox, every reply (the summary included) is appended to the outbox before
 * `report()` resolves — so before the engine persists its next state — and a reporter that opens the outbox of a
 * job resumed after a kill delivers what the dead worker left pending first; a line the resumed engine re-emits is
 * not appended again. `close()` closes the outbox once everything is delivered (else the sweeper finishes it).
 */
import type { WebClient } from '@slack/web-api';
import type { HealthStatus, SyncEvent, TaskRef, WaveRef } from '../../domain/index.js';
import { Wakeup } from '../../engine/index.js';
import type { ReportTarget, ResumedFrom, SyncReporter } from '../../queue/index.js';
import type { SlackMessage } from '../messages/block.js';
import { textMessage } from '../messages/block.js';
import {
  deletionHookBlocks,
  deletionSummaryBlocks,
  resourcesDeletedBlocks,
  resourcesKeptBlocks,
} from '../messages/deletion-blocks.js';
import { hookOutcomeBlocks } from '../messages/hook-outcome-blocks.js';
import { planWarningsBlocks } from '../messages/plan-warnings-blocks.js';
import type { RollbackButtonValue } from '../messages/rollback-button.js';
import {
  type SyncHeaderState,
  type SyncHeaderView,
  syncHeaderBlocks,
} from '../messages/sync-header-blocks.js';
import { isAlarming, type SyncSummary, syncSummaryBlocks } from '../messages/sync-summary-blocks.js';
import { waveCompletedBlocks } from '../messages/wave-completed-blocks.js';
import {
  pruneConfirmationBlocks,
  syncFailStartedBlocks,
  waveStartedBlocks,
} from '../messages/wave-started-blocks.js';
import { CallBudget } from './call-budget.js';
import { ChannelPacer } from './channel-pacer.js';
import type { PostedLines } from './posted-lines.js';
import { nextStep, type Step } from './reporter-schedule.js';
import type { DeliveryLogger } from './slack-delivery.js';
import { broadcastRuns, type OutboxLine, type ThreadOutbox } from './thread-outbox.js';
import { ThreadPoster } from './thread-poster.js';

export interface SlackReporterOptions {
  /** A WebClient created with `rejectRateLimitedCalls: true` (see createSlackWebClient). */
  client: WebClient;
  target: ReportTarget;
  /** Everything the header shows besides its state. */
  header: Omit<SyncHeaderView, 'state'>;
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
   * Called for each message given up (Slack outage past 10 min, permanent error) with the thread lines it held: the
   * dropped-messages and dropped-lines metrics.
   */
  onDropped?: (what: 'thread reply' | 'header update', lines: number) => void;
  /** The job's durable outbox (redisThreadOutbox); without it lines pending in a dying worker are lost. */
  outbox?: ThreadOutbox;
  /** How long one message is retried through a Slack outage (ms); default 10 min. */
  retentionMs?: number;
  /**
   * Set when BullMQ runs the job again after a transient error (the Kubernetes API unreachable, attempts left):
   * this attempt (2 = the first retry), the job's attempts, and the previous attempt's error (job.failedReason).
   */
  retry?: { attempt: number; attempts: number; reason: string };
  /**
   * With an outbox: once every line is in it, close() hands the rest of the delivery here and returns, so the job
   * ends (and its worker slot frees) while Slack's pace still delays its thread; the worker awaits these when it
   * shuts down (bounded), and the outbox sweeper finishes what a dead worker left. Without it close() waits.
   */
  detach?: (delivery: Promise<void>) => void;
  /**
   * Set when this delivery took over an earlier one's turn: whether that delivery ran on this same worker (its
   * lock lapsed) or on another one (dead, frozen past its lock, shut down). Unset reads as another worker.
   */
  resumedFrom?: ResumedFrom;
}

export interface SlackReporter extends SyncReporter {
  /** Slack calls made so far (429 answers included). */
  readonly calls: number;
  /** The call budget of the current operation (waves + hooks + 3; Infinity before OperationStarted). */
  readonly budget: number;
}

/** A reporter for one job. */
export function createSlackReporter(options: SlackReporterOptions): SlackReporter {
  return new ThreadReporter(options);
}

interface PendingReply {
  message: SlackMessage;
  /** Hook outcomes are never held back by the budget. */
  hookOutcome: boolean;
  /** Stable key of the line (see eventKey). */
  key: string;
  /** Posted as a reply_broadcast (an alarming summary). */
  broadcast: boolean;
  /** The line's outbox entry, once appended. */
  id?: string;
}

class ThreadReporter implements SlackReporter {
  private readonly o: Required<
    Omit<
      SlackReporterOptions,
      'logger' | 'posted' | 'onDropped' | 'outbox' | 'retentionMs' | 'retry' | 'resumedFrom' | 'detach'
    >
  > & {
    logger?: DeliveryLogger;
    retry?: SlackReporterOptions['retry'];
    resumedFrom?: ResumedFrom;
    detach?: SlackReporterOptions['detach'];
  };
  private readonly callBudget = new CallBudget();
  private readonly poster: ThreadPoster;
  private readonly replies: PendingReply[] = [];
  /** Replies queued by the last apply(), appended to the outbox before they join `replies`. */
  private readonly incoming: PendingReply[] = [];
  private readonly outbox: ThreadOutbox | undefined;
  private opened: Promise<void> | undefined;
  /** Keys of the lines a previous worker left in the outbox (delivered first; not appended again). */
  private readonly inherited = new Set<string>();
  /** The summary reply was built (appended as soon as it is due) or inherited. */
  private summaryBuilt = false;
  private firstReplyAt = 0;
  private header: Omit<SyncHeaderView, 'state'>;
  private startedAt: number | undefined;
  private wave: WaveRef | undefined;
  /** Why the current wave waits (WaveWaiting), shown in the header until the wave ends. */
  private waiting: string[] = [];
  /**
   * Why the current wave's resources (not hooks: they have outcome lines) last waited, and whether a header update
   * showed a waiting reason in this wave: if none did (header updates are throttled and spend the call budget
   * only while it lasts), the wave's completed line says what it waited for, so the thread always says it once.
   */
  private waitedFor: string[] = [];
  private waitingShown = false;
  private headerDirtyAt: number | undefined;
  private lastHeaderAt = 0;
  private summary: SyncSummary | undefined;
  private health: SyncSummary['health'];
  private summaryReady = false;
  private summaryPosted = false;
  private closed = false;
  private loop: Promise<void> | undefined;
  private readonly signal = new Wakeup();
  /** Occurrences of each base key so far (the n of `key#n`). */
  private readonly seen = new Map<string, number>();

  constructor(options: SlackReporterOptions) {
    this.o = { pacer: new ChannelPacer(), headerIntervalMs: 1000, coalesceMs: 250, ...options };
    this.header = options.header;
    this.outbox = options.outbox;
    this.poster = new ThreadPoster({
      ...this.o,
      budget: this.callBudget,
      ...(options.outbox ? { outbox: options.outbox } : {}),
      ...(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs }),
      ...(options.posted ? { posted: options.posted } : {}),
      ...(options.onDropped ? { onDropped: options.onDropped } : {}),
      ...(options.header.jobId ? { scope: options.header.jobId } : {}),
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
    this.apply(event);
    if (this.summary && this.summaryReady) this.buildSummary();
    await this.enqueue();
    this.loop ??= this.run();
    this.signal.notify();
  }

  async close(): Promise<void> {
    await this.ensureOpen();
    this.closed = true;
    if (this.summary) this.buildSummary();
    await this.enqueue();
    this.loop ??= this.run();
    this.signal.notify();
    if (this.outbox && this.o.detach) {
      // The job ends now: its header's final state must be in the outbox too (not only the lines), or a worker
      // dying before its run loop stores it leaves the sweeper a non-final header to apply (thread-faults' kill trial).
      await this.storeFinalHeader();
      // Every line is in the outbox (durable): Slack's pace delays the thread, not the end of the job.
      this.o.detach(this.drain(this.loop));
    } else await this.drain(this.loop);
  }

  /** Store the operation's final header state in the outbox (nothing is sent: the run loop or the sweeper sends it). */
  private async storeFinalHeader(): Promise<void> {
    if (!this.summary || !this.outbox) return;
    try {
      await this.outbox.storeHeader(syncHeaderBlocks({ ...this.header, state: this.finalState() }), true);
    } catch (err) {
      this.o.logger?.warn({ err: (err as Error).message }, 'final header state not stored');
    }
  }

  private async drain(loop: Promise<void>): Promise<void> {
    await loop;
    // Lines given up and not yet said (no post succeeded after them): say it now, through the outage's retention.
    await this.poster.announceDrops();
    if (this.poster.stale || !this.outbox) return;
    // Everything delivered: the outbox is deleted; lines or a header left (Slack still down) stay for the sweeper.
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
      for (const e of snapshot?.pending ?? []) {
        if (this.inherited.has(e.key)) continue;
        this.inherited.add(e.key);
        if (e.key.startsWith('summary#')) this.summaryBuilt = true;
        this.push({ ...e });
      }
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

  /** The summary reply, once: appended with the event that made it due (or at close). */
  private buildSummary(): void {
    if (this.summaryBuilt || !this.summary) return;
    this.summaryBuilt = true;
    const summary: SyncSummary = { ...this.summary, ...(this.health ? { health: this.health } : {}) };
    const message = this.header.deletion
      ? deletionSummaryBlocks({ ...summary, application: this.header.application })
      : syncSummaryBlocks(summary, this.rollbackButton());
    const key = this.occurrence('summary');
    if (this.inherited.has(key)) return;
    this.incoming.push({ message, hookOutcome: false, key, broadcast: isAlarming(summary) });
  }

  private apply(event: SyncEvent): void {
    const now = Date.now();
    switch (event.type) {
      case 'OperationStarted': {
        // A deletion replies once per wave, once for what is kept, and updates the header per wave.
        if (this.header.deletion) this.callBudget.plan(event.waves.length * 2 + 1, 0);
        else this.callBudget.plan(event.waves.length, countHooks(event.waves.flatMap((w) => w.tasks)));
        this.startedAt = Date.parse(event.at);
        this.header = { ...this.header, revision: event.revision };
        this.markHeader(now);
        if (event.resumed)
          this.queue(textMessage(resumedLine(this.o.retry, this.o.resumedFrom)), false, `resumed@${now}`);
        const warnings = [...(event.fallbacks ?? []), ...(event.warnings ?? [])];
        if (warnings.length > 0 && !event.resumed) {
          // Mandatory like a hook outcome: it explains a failure (or a dry run's verdict) before it happens, and
          // says each of Argo CD's silent fallbacks as `wavesync plan` does.
          this.callBudget.addHooks(1);
          this.queue(planWarningsBlocks(warnings), true, 'warnings');
        }
        return;
      }
      case 'WaveStarted':
        this.wave = event.wave;
        this.waiting = [];
        this.waitedFor = [];
        this.waitingShown = false;
        this.markHeader(now);
        this.queue(waveStartedBlocks(event), false, `started:${waveKey(event.wave)}`);
        return;
      case 'HookFinished':
        this.queue(
          hookOutcomeBlocks(event),
          true,
          `hook:${waveKey(event.wave)}:${taskKey(event.task)}:${event.hookPhase}`,
        );
        return;
      case 'WaveCompleted':
        if (this.waiting.length > 0) this.markHeader(now);
        this.waiting = [];
        this.queue(
          waveCompletedBlocks(event, this.waitingShown ? [] : this.waitedFor),
          false,
          `done:${waveKey(event.wave)}:${event.failed ? 'failed' : 'ok'}`,
        );
        return;
      case 'WaveWaiting':
        // The header only (edited in place, throttled by headerIntervalMs): no reply per change.
        this.waiting = event.waiting.map((w) => w.reason);
        if (event.waiting.some((w) => !w.task.isHook))
          this.waitedFor = event.waiting.filter((w) => !w.task.isHook).map((w) => w.reason);
        this.markHeader(now);
        return;
      case 'PruneConfirmationRequired':
        // Mandatory like a hook outcome: without it nobody knows the sync waits for them.
        this.callBudget.addHooks(1);
        this.queue(pruneConfirmationBlocks(event, this.header.application), true, 'prune-confirmation');
        return;
      case 'SyncFailStarted':
        this.callBudget.addHooks(countHooks(event.tasks));
        this.queue(syncFailStartedBlocks(event), false, 'syncfail');
        return;
      case 'OperationCompleted':
        this.summary = {
          phase: event.phase,
          message: event.message,
          durationMs: event.durationMs,
          state: event.state,
          ...(event.cancelledBy ? { cancelledBy: event.cancelledBy } : {}),
        };
        // A deletion, or a cancelled operation, assesses no health afterwards: its summary is ready now.
        if (this.header.deletion || event.cancelledBy) this.summaryReady = true;
        return;
      case 'HealthAssessed':
        this.health = { health: event.health, afterMs: event.afterMs, unhealthy: event.unhealthy };
        this.summaryReady = this.summary !== undefined;
        return;
      case 'ResourcesDeleted':
        this.markHeader(now);
        this.queue(resourcesDeletedBlocks(event), false, `deleted:${event.syncWave}`);
        return;
      case 'ResourcesKept':
        this.queue(resourcesKeptBlocks(event), false, 'kept');
        return;
      case 'DeletionHookFinished':
        this.queue(
          deletionHookBlocks(event),
          true,
          `deletion-hook:${event.hookType}:${taskKey(event.task)}:${event.hookPhase}`,
        );
        return;
      default:
        return; // ResourceApplied and HookStarted are summarised by the wave and hook replies
    }
  }

  private queue(message: SlackMessage, hookOutcome: boolean, base: string): void {
    const key = this.occurrence(base);
    if (this.inherited.has(key)) return; // left by the previous worker: already queued first
    this.incoming.push({ message, hookOutcome, key, broadcast: false });
  }

  /** `base#n` for the n-th reply with this base key: deterministic for an engine that re-emits in order. */
  private occurrence(base: string): string {
    const n = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, n);
    return `${base.replace(/\s+/g, '_')}#${n}`;
  }

  private markHeader(now: number): void {
    this.headerDirtyAt ??= now;
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
    const finalSummary =
      this.summary !== undefined && (this.summaryReady || this.closed) && !this.summaryPosted;
    return nextStep({
      now: Date.now(),
      closed: this.closed,
      slotInMs: this.o.pacer.msUntilFree(this.o.target.channel),
      coalesceMs: this.o.coalesceMs,
      replies:
        this.replies.length === 0
          ? undefined
          : { since: this.firstReplyAt, mandatory: this.replies.some((r) => r.hookOutcome) },
      header:
        this.headerDirtyAt === undefined
          ? undefined
          : {
              since: this.headerDirtyAt,
              nextAllowedAt: this.lastHeaderAt + this.o.headerIntervalMs,
              final: this.summaryPosted,
            },
      summary: finalSummary ? { alarming: isAlarming({ ...this.summary!, health: this.health }) } : undefined,
      summaryPosted: this.summaryPosted,
      canSpendOptional: this.callBudget.canSpendOptional(),
    });
  }

  private async perform(kind: 'replies' | 'summary' | 'header'): Promise<void> {
    if (kind === 'header') return this.updateHeader();
    const taken = this.replies.splice(0);
    if (kind === 'replies') return this.post(taken);
    this.summaryBuilt = true;
    this.summaryPosted = true;
    this.headerDirtyAt = Date.now();
    return this.post(taken);
  }

  /** The Roll back button's value for this job's summary, when the Application can be rolled back. */
  private rollbackButton(): RollbackButtonValue | undefined {
    const { rollbackable, application, jobId } = this.header;
    return rollbackable ? { application, ...(jobId ? { jobId } : {}) } : undefined;
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
    const state = this.headerState();
    if (state.kind === 'running' && (state.waiting?.length ?? 0) > 0) this.waitingShown = true;
    await this.poster.updateHeader(syncHeaderBlocks({ ...this.header, state }), this.summaryPosted);
  }

  private headerState(): SyncHeaderState {
    if (this.summaryPosted && this.summary) return this.finalState();
    const elapsedMs = this.startedAt === undefined ? 0 : Date.now() - this.startedAt;
    return {
      kind: 'running',
      elapsedMs,
      ...(this.wave ? { wave: this.wave } : {}),
      ...(this.waiting.length > 0 ? { waiting: this.waiting } : {}),
    };
  }

  /** The header of the ended operation (its summary is known). */
  private finalState(): SyncHeaderState {
    const health: HealthStatus | undefined = this.health?.health;
    const { phase, durationMs, message, cancelledBy } = this.summary!;
    if (cancelledBy) {
      const reason = cancelledBy.reason ? { reason: cancelledBy.reason } : {};
      return { kind: 'cancelled', by: cancelledBy.userId, ...reason, durationMs, message };
    }
    return { kind: 'completed', phase, durationMs, message, ...(health ? { health } : {}) };
  }
}

function countHooks(tasks: readonly TaskRef[]): number {
  return tasks.filter((t) => t.isHook).length;
}

function waveKey(wave: WaveRef): string {
  return `${wave.phase}:${wave.wave}`;
}

function taskKey(task: TaskRef): string {
  return `${task.group}/${task.kind}/${task.namespace}/${task.name}`;
}

function outboxLine(r: PendingReply): OutboxLine {
  return { key: r.key, message: r.message, broadcast: r.broadcast, hookOutcome: r.hookOutcome };
}

/**
 * The line of a resumed operation: run again by BullMQ after a transient error — said as such, with the error, so
 * a retry is not taken for a second worker —, taken back by the same worker after its job lock lapsed, or resumed
 * by another worker (its worker died, froze past its lock, or shut down).
 */
export function resumedLine(retry: SlackReporterOptions['retry'], resumedFrom?: ResumedFrom): string {
  if (retry) {
    return `↻ Retrying (attempt ${retry.attempt} of ${retry.attempts}) after: ${retry.reason}; continuing in this thread.`;
  }
  if (resumedFrom === 'this-worker') {
    return '↻ Resumed by this worker after its job lock lapsed; continuing in this thread.';
  }
  return '↻ Resumed by another worker; continuing in this thread.';
}
