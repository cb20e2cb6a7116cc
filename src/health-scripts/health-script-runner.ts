/**
 * createHealthScriptRunner — runs health scripts in a worker thread, so that no script can hold the event loop
 * or the process's memory, whatever it does:
 * - the worker runs the VM (run-health-script.ts) with its 1 s limit and a byte budget on strings
 *   (byte-budget.ts): a loop, a string bomb (`s = s .. s`, `string.rep`) end there with Unknown and the reason;
 * - its heap is capped (resourceLimits, default 128 MB): a table bomb kills the worker, the run is Unknown
 *   "… used more than 128 MB of memory", and a new worker takes the runs queued behind it;
 * - a run still going `graceMs` after the time limit (one native call that never returns, e.g. a pattern that
 *   backtracks for hours) is stopped by terminating the worker: Unknown "timed out after 1000 ms".
 * Runs asked in one turn of the event loop go as one batch, and are answered in order (every 20 ms at least); the worker holds the process open only while runs are
 * pending. One worker per runner; sharedHealthScriptRunner() is the process's.
 */
import type { Worker } from 'node:worker_threads';
import type { HealthStatus } from '../domain/index.js';
import { startModuleWorker } from '../module-worker.js';
import { HEALTH_SCRIPT_BYTE_BUDGET } from './byte-budget.js';
import type { WorkerMessage, WorkerOptions, WorkerRequest, WorkerScript } from './health-script-worker.js';
import {
  HEALTH_SCRIPT_TIMEOUT_MS,
  type HealthScript,
  type HealthScriptVmOptions,
} from './run-health-script.js';

export interface HealthScriptRunner {
  /** The health `script` gives `obj`; never rejects. */
  run(script: HealthScript, obj: unknown): Promise<HealthStatus>;
  /** Stops the worker; runs still pending are Unknown. */
  close(): Promise<void>;
}

export interface HealthScriptRunnerOptions extends HealthScriptVmOptions {
  /** The worker's heap limit (V8 old generation), MB. Default 128. */
  maxHeapMb?: number;
  /** How long past the time limit a run may go before the worker is terminated. Default 500 ms. */
  graceMs?: number;
}

const DEFAULT_MAX_HEAP_MB = 128;
const DEFAULT_GRACE_MS = 500;

interface Pending {
  id: number;
  script: WorkerScript;
  obj: unknown;
  resolve(health: HealthStatus): void;
}

/** The worker (its module compiled or through tsx, as this one runs), its heap capped at `maxHeapMb`. */
function startWorker(options: WorkerOptions, maxHeapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 };
  return startModuleWorker(import.meta.url, './health-script-worker', {
    workerData: options,
    resourceLimits,
  });
}

function unknown(message: string): HealthStatus {
  return { status: 'Unknown', message };
}

class WorkerRunner implements HealthScriptRunner {
  private worker: Worker | undefined;
  private ready = false;
  /** Runs in order; the first `sent` were posted to the current worker, the first of them is running. */
  private readonly queue: Pending[] = [];
  private sent = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private nextId = 1;
  /** The scripts the current worker was sent, by their text, with their number. */
  private readonly scriptIds = new Map<string, number>();
  private nextScript = 1;
  private readonly options: Omit<WorkerOptions, 'progress'>;
  /** The current worker's progress (WorkerOptions.progress). */
  private progress: Float64Array<ArrayBufferLike> = new Float64Array(2);
  private readonly maxHeapMb: number;
  private readonly graceMs: number;

  constructor(options: HealthScriptRunnerOptions) {
    this.options = {
      timeoutMs: options.timeoutMs ?? HEALTH_SCRIPT_TIMEOUT_MS,
      byteBudget: options.byteBudget ?? HEALTH_SCRIPT_BYTE_BUDGET,
    };
    this.maxHeapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  }

  run(script: HealthScript, obj: unknown): Promise<HealthStatus> {
    return new Promise((resolve) => {
      const { name, source, openLibs } = script;
      this.queue.push({ id: this.nextId++, script: { name, source, openLibs }, obj, resolve });
      if (this.queue.length - this.sent === 1) queueMicrotask(() => this.pump()); // one batch per turn
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.dispose();
    for (const pending of this.queue.splice(0)) pending.resolve(unknown(`${pending.script.name}: stopped`));
    await worker?.terminate();
  }

  private pump(): void {
    if (this.worker === undefined) this.spawn();
    const worker = this.worker;
    if (!this.ready || worker === undefined) {
      worker?.ref(); // starting: runs wait for it
      return;
    }
    const batch: WorkerRequest[] = [];
    for (const pending of this.queue.slice(this.sent)) {
      const key = `${pending.script.openLibs}\0${pending.script.name}\0${pending.script.source}`;
      let script = this.scriptIds.get(key);
      const define = script === undefined ? pending.script : undefined;
      if (script === undefined) {
        script = this.nextScript++;
        this.scriptIds.set(key, script);
      }
      batch.push({ id: pending.id, script, obj: pending.obj, ...(define ? { define } : {}) });
    }
    if (batch.length === 0) return;
    try {
      worker.postMessage(batch);
      this.sent += batch.length;
    } catch {
      // An object cannot be copied to the worker (not plain data): send them one by one, each with its script.
      const scripts = new Map(this.queue.map((p) => [p.id, p.script]));
      for (const request of batch) this.sendOne(worker, { ...request, define: scripts.get(request.id)! });
      this.scriptIds.clear(); // a script may have gone only with a request that could not be sent
    }
    this.arm();
  }

  private sendOne(worker: Worker, request: WorkerRequest): void {
    try {
      worker.postMessage([request]);
      this.sent++;
    } catch (error) {
      const index = this.queue.findIndex((p) => p.id === request.id);
      const [pending] = this.queue.splice(index, 1);
      pending?.resolve(unknown(`${pending.script.name}: ${(error as Error).message}`));
    }
  }

  /** The watchdog runs while runs are sent; the worker holds the process open only while runs are pending. */
  private arm(): void {
    if (this.sent === 0) {
      clearTimeout(this.watchdog);
      this.watchdog = undefined;
      this.worker?.unref();
      return;
    }
    this.worker?.ref();
    this.watchdog ??= setTimeout(() => this.check(), this.options.timeoutMs + this.graceMs);
  }

  /** Stops the run going on when it passed the time limit and the grace, else looks again when it would. */
  private check(): void {
    this.watchdog = undefined;
    if (this.sent === 0) return;
    const limit = this.options.timeoutMs + this.graceMs;
    const [running = 0, startedAt = 0] = this.progress;
    const ranMs = performance.timeOrigin + performance.now() - startedAt;
    if (running !== 0 && ranMs >= limit) {
      this.failRun(running, `timed out after ${this.options.timeoutMs} ms`);
      return;
    }
    this.watchdog = setTimeout(() => this.check(), running === 0 ? limit : Math.max(1, limit - ranMs));
  }

  private spawn(): void {
    const progress = new SharedArrayBuffer(16);
    this.progress = new Float64Array(progress);
    const worker = startWorker({ ...this.options, progress }, this.maxHeapMb);
    this.worker = worker;
    this.ready = false;
    this.sent = 0;
    this.scriptIds.clear();
    worker.on('message', (message: WorkerMessage) => {
      if (worker !== this.worker) return;
      if ('ready' in message) {
        this.ready = true;
        this.pump();
        return;
      }
      for (const [id, health] of message.results) {
        const pending = this.queue[0];
        if (pending?.id !== id) continue;
        this.queue.shift();
        this.sent--;
        pending.resolve(health);
      }
      this.arm();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (worker !== this.worker) return;
      if (!this.ready) {
        // The worker could not start: every run pending now fails with why; the next run tries again.
        this.dispose();
        for (const pending of this.queue.splice(0))
          pending.resolve(
            unknown(`${pending.script.name}: the health script worker did not start: ${error.message}`),
          );
        return;
      }
      this.failRun(
        this.progress[0] || this.queue[0]?.id || 0,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `used more than ${this.maxHeapMb} MB of memory`
          : `the health script worker failed: ${error.message}`,
      );
    });
    worker.on('exit', (code) => {
      if (worker === this.worker)
        this.failRun(
          this.progress[0] || this.queue[0]?.id || 0,
          `the health script worker exited (code ${code})`,
        );
    });
    worker.unref();
  }

  /**
   * Run `id` fails with `reason`; the worker is replaced, and the runs it had not answered (before that run or
   * behind it) are sent to the new one.
   */
  private failRun(id: number, reason: string): void {
    const worker = this.worker;
    this.dispose();
    void worker?.terminate();
    const index = this.queue.findIndex((p) => p.id === id);
    const [pending] = index < 0 ? [] : this.queue.splice(index, 1);
    pending?.resolve(unknown(`${pending.script.name}: ${reason}`));
    if (this.queue.length > 0) this.pump();
  }

  private dispose(): void {
    clearTimeout(this.watchdog);
    this.watchdog = undefined;
    this.worker = undefined;
    this.ready = false;
    this.sent = 0;
    this.scriptIds.clear();
  }
}

export function createHealthScriptRunner(options: HealthScriptRunnerOptions = {}): HealthScriptRunner {
  return new WorkerRunner(options);
}

let shared: HealthScriptRunner | undefined;

/** The process's runner with Argo CD's limits, started at its first run. */
export function sharedHealthScriptRunner(): HealthScriptRunner {
  shared ??= createHealthScriptRunner();
  return shared;
}
