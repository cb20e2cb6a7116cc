/**
 * The story a sync's thread tells, from its events: which event becomes which line — one per wave start and
 * completion, per hook outcome, the plan's warnings, a prune confirmation, the SyncFail phase, a deletion's waves —
 * what the header shows as the operation moves (its wave, why it waits, its outcome), the final summary with the
 * health observed after the sync, and the call budget each line draws on. Delivery is not its business
 * (./sync-thread-reporter.ts). Each line has a stable key — the event's kind and identity (phase, wave, task,
 * outcome) and its occurrence number — so a resumed worker whose engine re-emits WaveStarted / WaveCompleted
 * produces the same keys, and a line a previous worker left in the outbox is not told again.
 */
import type { HealthStatus, SyncEvent, TaskRef, WaveRef } from '../domain/index.js';
import type { ResumedFrom } from '../queue/index.js';
import type { CallBudget } from './call-budget.js';
import type { ChatMessage, ChatTransport } from './chat.js';
import {
  isAlarming,
  type OperationHeaderState,
  type SyncSummary,
  type SyncThreadWording,
} from './sync-thread-wording.js';

/** A line of the thread. */
export interface StoryLine {
  message: ChatMessage;
  /** Hook outcomes (and other mandatory lines) are never held back by the budget. */
  hookOutcome: boolean;
  /** Stable key of the line (see the module comment). */
  key: string;
  /** Posted also in the channel (an alarming summary). */
  broadcast: boolean;
}

/** Why a job runs again: BullMQ's retry after a transient error (this attempt, the job's attempts, the error). */
export interface RetryAttempt {
  attempt: number;
  attempts: number;
  reason: string;
}

export interface ThreadStoryOptions {
  wording: SyncThreadWording;
  /** For notes (the resumed line). */
  chat: Pick<ChatTransport, 'note'>;
  budget: CallBudget;
  /** The job deletes the Application: a line per wave and one for what is kept; no health afterwards. */
  deletion: boolean;
  retry?: RetryAttempt;
  resumedFrom?: ResumedFrom;
}

export class ThreadStory {
  private readonly o: ThreadStoryOptions;
  /** Keys of the lines a previous worker left in the outbox (delivered first; not told again). */
  private readonly inherited = new Set<string>();
  /** The summary line was built (told as soon as it is due) or inherited. */
  private summaryBuilt = false;
  /** The resolved revision, once the operation started. */
  private revision: string | undefined;
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
  private summary: SyncSummary | undefined;
  private health: SyncSummary['health'];
  private summaryReady = false;
  /** Occurrences of each base key so far (the n of `key#n`). */
  private readonly seen = new Map<string, number>();

  constructor(options: ThreadStoryOptions) {
    this.o = options;
  }

  /** A line the previous worker left in the outbox: false when it is known already. */
  inherit(key: string): boolean {
    if (this.inherited.has(key)) return false;
    this.inherited.add(key);
    if (key.startsWith('summary#')) this.summaryBuilt = true;
    return true;
  }

  /** Whether the operation ended (OperationCompleted was told). */
  get ended(): boolean {
    return this.summary !== undefined;
  }

  /** The summary may be posted: its health is assessed (or none will be), or `closed`. */
  summaryDue(closed: boolean): boolean {
    return this.summary !== undefined && (this.summaryReady || closed);
  }

  /** Whether the summary, as it stands, alarms (and is therefore also shown in the channel). */
  alarming(): boolean {
    return this.summary !== undefined && isAlarming({ ...this.summary, health: this.health });
  }

  /** The summary line, once (undefined before the operation ended, after it was built, or when inherited). */
  summaryLine(): StoryLine | undefined {
    if (this.summaryBuilt || !this.summary) return undefined;
    this.summaryBuilt = true;
    const summary: SyncSummary = { ...this.summary, ...(this.health ? { health: this.health } : {}) };
    const key = this.occurrence('summary');
    if (this.inherited.has(key)) return undefined;
    const message = this.o.wording.summary(summary);
    return { message, hookOutcome: false, key, broadcast: isAlarming(summary) };
  }

  /** The summary is being posted. */
  summaryTold(): void {
    this.summaryBuilt = true;
  }

  /** The lines `event` adds to the thread, and whether the header changed. */
  tell(event: SyncEvent, now: number): { lines: StoryLine[]; headerChanged: boolean } {
    const lines: StoryLine[] = [];
    const line = (message: ChatMessage, hookOutcome: boolean, base: string) => {
      const key = this.occurrence(base);
      // Left by the previous worker: already queued first.
      if (!this.inherited.has(key)) lines.push({ message, hookOutcome, key, broadcast: false });
    };
    const headerChanged = this.apply(event, now, line);
    return { lines, headerChanged };
  }

  /** The header's message now; `final` once the summary is posted. Marks a shown waiting reason. */
  header(final: boolean, now: number): ChatMessage {
    const state = this.headerState(final, now);
    if (state.kind === 'running' && (state.waiting?.length ?? 0) > 0) this.waitingShown = true;
    return this.o.wording.header(state, this.revision);
  }

  /** The header of the ended operation, or undefined while it runs. */
  finalHeader(): ChatMessage | undefined {
    return this.summary ? this.o.wording.header(this.finalState(), this.revision) : undefined;
  }

  private apply(
    event: SyncEvent,
    now: number,
    line: (message: ChatMessage, hookOutcome: boolean, base: string) => void,
  ): boolean {
    const { wording, budget } = this.o;
    switch (event.type) {
      case 'OperationStarted': {
        // A deletion replies once per wave, once for what is kept, and updates the header per wave.
        if (this.o.deletion) budget.plan(event.waves.length * 2 + 1, 0);
        else budget.plan(event.waves.length, countHooks(event.waves.flatMap((w) => w.tasks)));
        this.startedAt = Date.parse(event.at);
        this.revision = event.revision;
        if (event.resumed)
          line(this.o.chat.note(resumedLine(this.o.retry, this.o.resumedFrom)), false, `resumed@${now}`);
        const warnings = [...(event.fallbacks ?? []), ...(event.warnings ?? [])];
        if (warnings.length > 0 && !event.resumed) {
          // Mandatory like a hook outcome: it explains a failure (or a dry run's verdict) before it happens, and
          // says each of Argo CD's silent fallbacks as `wavesync plan` does.
          budget.addHooks(1);
          line(wording.planWarnings(warnings), true, 'warnings');
        }
        return true;
      }
      case 'WaveStarted':
        this.wave = event.wave;
        this.waiting = [];
        this.waitedFor = [];
        this.waitingShown = false;
        line(wording.waveStarted(event), false, `started:${waveKey(event.wave)}`);
        return true;
      case 'HookFinished':
        line(
          wording.hookFinished(event),
          true,
          `hook:${waveKey(event.wave)}:${taskKey(event.task)}:${event.hookPhase}`,
        );
        return false;
      case 'WaveCompleted': {
        const changed = this.waiting.length > 0;
        this.waiting = [];
        line(
          wording.waveCompleted(event, this.waitingShown ? [] : this.waitedFor),
          false,
          `done:${waveKey(event.wave)}:${event.failed ? 'failed' : 'ok'}`,
        );
        return changed;
      }
      case 'WaveWaiting':
        // The header only (edited in place, throttled): no reply per change.
        this.waiting = event.waiting.map((w) => w.reason);
        if (event.waiting.some((w) => !w.task.isHook))
          this.waitedFor = event.waiting.filter((w) => !w.task.isHook).map((w) => w.reason);
        return true;
      case 'PruneConfirmationRequired':
        // Mandatory like a hook outcome: without it nobody knows the sync waits for them.
        budget.addHooks(1);
        line(wording.pruneConfirmation(event), true, 'prune-confirmation');
        return false;
      case 'SyncFailStarted':
        budget.addHooks(countHooks(event.tasks));
        line(wording.syncFailStarted(event), false, 'syncfail');
        return false;
      case 'OperationCompleted':
        this.summary = {
          phase: event.phase,
          message: event.message,
          durationMs: event.durationMs,
          state: event.state,
          ...(event.cancelledBy ? { cancelledBy: event.cancelledBy } : {}),
        };
        // A deletion, or a cancelled operation, assesses no health afterwards: its summary is ready now.
        if (this.o.deletion || event.cancelledBy) this.summaryReady = true;
        return false;
      case 'HealthAssessed':
        this.health = { health: event.health, afterMs: event.afterMs, unhealthy: event.unhealthy };
        this.summaryReady = this.summary !== undefined;
        return false;
      case 'ResourcesDeleted':
        line(wording.resourcesDeleted(event), false, `deleted:${event.syncWave}`);
        return true;
      case 'ResourcesKept':
        line(wording.resourcesKept(event), false, 'kept');
        return false;
      case 'DeletionHookFinished':
        line(
          wording.deletionHookFinished(event),
          true,
          `deletion-hook:${event.hookType}:${taskKey(event.task)}:${event.hookPhase}`,
        );
        return false;
      default:
        return false; // ResourceApplied and HookStarted are summarised by the wave and hook replies
    }
  }

  /** `base#n` for the n-th reply with this base key: deterministic for an engine that re-emits in order. */
  private occurrence(base: string): string {
    const n = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, n);
    return `${base.replace(/\s+/g, '_')}#${n}`;
  }

  private headerState(final: boolean, now: number): OperationHeaderState {
    if (final && this.summary) return this.finalState();
    const elapsedMs = this.startedAt === undefined ? 0 : now - this.startedAt;
    return {
      kind: 'running',
      elapsedMs,
      ...(this.wave ? { wave: this.wave } : {}),
      ...(this.waiting.length > 0 ? { waiting: this.waiting } : {}),
    };
  }

  /** The header of the ended operation (its summary is known). */
  private finalState(): OperationHeaderState {
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

/**
 * The line of a resumed operation: run again by BullMQ after a transient error — said as such, with the error, so
 * a retry is not taken for a second worker —, taken back by the same worker after its job lock lapsed, or resumed
 * by another worker (its worker died, froze past its lock, or shut down).
 */
function resumedLine(retry: RetryAttempt | undefined, resumedFrom?: ResumedFrom): string {
  if (retry) {
    return `↻ Retrying (attempt ${retry.attempt} of ${retry.attempts}) after: ${retry.reason}; continuing in this thread.`;
  }
  if (resumedFrom === 'this-worker') {
    return '↻ Resumed by this worker after its job lock lapsed; continuing in this thread.';
  }
  return '↻ Resumed by another worker; continuing in this thread.';
}
