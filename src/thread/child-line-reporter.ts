/**
 * ChildLineReporter — the SyncReporter of an App of Apps child sync: one reply in the **parent's** thread, posted
 * when the child's operation starts and updated in place as it moves through its waves and when it ends
 * (`↳ example.guestbook · Sync wave 1…` → `↳ ✅ example.guestbook Succeeded · Healthy · 12 s`); the chat's
 * presentation words each state (ChildLineView → `line`).
 *
 * The post waits for the channel's slot (shared ChannelPacer); updates are throttled (≤ 1 per `updateIntervalMs`,
 * latest state only) and bounded like a thread's calls (CallBudget: waves + 3, the final update reserved).
 * Restart-safe: the reply's ts is kept in a store (Redis) by job id, so a resumed child updates the same line.
 * `report()` never blocks on Slack; `close()` drains.
 */
import type { HealthStatus, OperationPhase, SyncEvent, WaveRef } from '../domain/index.js';
import { Wakeup } from '../engine/index.js';
import type { ReportTarget, SyncReporter } from '../queue/index.js';
import { CallBudget } from './call-budget.js';
import type { ChannelPacer } from './channel-pacer.js';
import type { ChatMessage, ChatTransport } from './chat.js';
import { type DeliveryLogger, deliver } from './delivery.js';

/** What a child's line shows. */
export type ChildLineView =
  | { kind: 'running'; application: string; wave?: WaveRef; resumed?: boolean }
  | {
      kind: 'completed';
      application: string;
      phase: OperationPhase;
      message: string;
      durationMs: number;
      health?: HealthStatus;
    };

/**
 * Where the ts of each child's line is kept (by job id), so a resumed job updates its line instead of posting.
 * Both methods reject when the store is unreachable.
 */
export interface ChildLineStore {
  get(jobId: string): Promise<string | undefined>;
  set(jobId: string, ts: string): Promise<void>;
}

export interface ChildLineReporterOptions {
  chat: ChatTransport;
  /** The line's words for each state (the chat's presentation). */
  line(view: ChildLineView): ChatMessage;
  /** The parent's thread. */
  target: ReportTarget;
  jobId: string;
  /** The child Application's name. */
  application: string;
  pacer: ChannelPacer;
  store: ChildLineStore;
  /** Minimum ms between updates of the line; default 1000. */
  updateIntervalMs?: number;
  logger?: DeliveryLogger;
}

/** A reporter for one child job. */
export function createChildLineReporter(options: ChildLineReporterOptions): SyncReporter {
  return new ChildLineReporter(options);
}

class ChildLineReporter implements SyncReporter {
  private readonly o: ChildLineReporterOptions;
  private readonly budget = new CallBudget();
  private readonly signal = new Wakeup();
  private view: ChildLineView;
  private completed: Extract<ChildLineView, { kind: 'completed' }> | undefined;
  private dirty = false;
  private final = false;
  private closed = false;
  private ts: string | undefined;
  private tsLoaded = false;
  private lastAt = 0;
  private loop: Promise<void> | undefined;

  constructor(options: ChildLineReporterOptions) {
    this.o = options;
    this.view = { kind: 'running', application: options.application };
  }

  async report(event: SyncEvent): Promise<void> {
    const { application } = this.o;
    switch (event.type) {
      case 'OperationStarted':
        this.budget.plan(event.waves.length, 0);
        this.view = { kind: 'running', application, resumed: event.resumed };
        break;
      case 'WaveStarted':
        this.view = { kind: 'running', application, wave: event.wave };
        break;
      case 'OperationCompleted':
        this.completed = {
          kind: 'completed',
          application,
          phase: event.phase,
          message: event.message,
          durationMs: event.durationMs,
        };
        this.view = this.completed;
        // The outcome line waits for the health assessment that follows (or for close()).
        return;
      case 'HealthAssessed':
        if (this.completed) {
          this.view = { ...this.completed, health: event.health };
          this.final = true;
        }
        break;
      default:
        return;
    }
    this.dirty = true;
    this.loop ??= this.run();
    this.signal.notify();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.view.kind === 'completed') {
      this.final = true;
      this.dirty = true;
    }
    this.loop ??= this.run();
    this.signal.notify();
    await this.loop;
  }

  private async run(): Promise<void> {
    for (;;) {
      if (!this.dirty) {
        if (this.closed) return;
        await this.signal.sleep(undefined);
        continue;
      }
      const mandatory = this.final || this.ts === undefined;
      if (!mandatory && !this.budget.canSpendOptional()) {
        // Over budget: the line catches up with the final update.
        if (this.closed) return;
        await this.signal.sleep(undefined);
        continue;
      }
      const waitMs = mandatory ? 0 : this.lastAt + (this.o.updateIntervalMs ?? 1000) - Date.now();
      if (waitMs > 0 && !this.closed) {
        await this.signal.sleep(waitMs);
        continue;
      }
      this.dirty = false;
      await this.send(this.o.line(this.view));
    }
  }

  private async send(message: ChatMessage): Promise<void> {
    const { chat, target, pacer, store, jobId } = this.o;
    const ctx = {
      channel: target.channel,
      pacer,
      what: 'child line',
      ...(this.o.logger ? { logger: this.o.logger } : {}),
    };
    if (!this.tsLoaded) {
      this.ts = await store.get(jobId).catch(() => undefined);
      this.tsLoaded = true;
    }
    this.lastAt = Date.now();
    if (this.ts === undefined) {
      await pacer.acquire(target.channel);
      const result = await deliver(
        () => chat.post(target.channel, message, { threadTs: target.threadTs }),
        ctx,
      );
      this.budget.spend(result.attempts);
      const ts = result.value;
      if (ts) {
        this.ts = ts;
        await store
          .set(jobId, ts)
          .catch((err: unknown) =>
            this.o.logger?.warn({ jobId, err: String(err) }, 'child line ts not stored'),
          );
      }
      return;
    }
    const ts = this.ts;
    const result = await deliver(() => chat.update(target.channel, ts, message), ctx);
    this.budget.spend(result.attempts);
  }
}
