/**
 * startWorkerThread — `wavesync serve`'s worker role in a worker thread of its own (issue 29): the sync engine, its
 * renders, plans, state copies and garbage collection run beside the bot, never on the event loop that answers
 * Slack (`/sync` acks within Slack's 3 s), `/healthz` and `/metrics`. One process as before (one container, one
 * signal, one exit code); two event loops and two heaps.
 *
 * - The thread runs `startWavesync('worker', { embedded: true })` (worker-thread-entry.ts): the same worker as
 *   `wavesync worker`, with its own registry, caches and connections, from the same Config and environment; its
 *   git and Helm caches are subfolders of the configured ones (the bot's drift and revision watcher fetch
 *   beside it, and one cache is serialised within one thread only).
 * - Its log lines are written through the caller's logger; its metrics are added to serve's /metrics.
 * - It computes serve's previews (`preview()`: `/sync diff`, `--dry-run`, approval messages, View diff): the render,
 *   the tracked-object listing from its live-state cache (the one its syncs keep), the N server-side dry runs and the
 *   comparison happen on its thread and heap; the bot receives the preview without its unchanged resources
 *   (previewForTransfer). At 50,000 objects the bot's heap no longer holds the dry runs' answers and the render, whose
 *   garbage collection stalled the bot's loop.
 * - A thread that ends unexpectedly (an uncaught error, out of memory) is logged and started again after a back-off
 *   (1 s, 2 s, 5 s, 10 s, then every 30 s); meanwhile /healthz is 503 naming why. Its jobs are resumed by BullMQ's
 *   stall recovery, as after a worker process's crash.
 * - close() asks the worker to stop (running syncs saved and handed back, as `wavesync worker` on SIGTERM) and waits
 *   for the thread to end, then terminates it after the grace period.
 */
import type { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { type Application, BotError, type BotErrorCode, type SyncOperation } from '../domain/index.js';
import type { EngineOptions } from '../engine/index.js';
import type { SyncPreview } from '../environments/index.js';
import type { Logger } from '../logger.js';
import { startModuleWorker } from '../module-worker.js';
import type { MetricsJson } from '../ops/metrics.js';

/** What the thread is started with (structured-cloned: data only). */
export interface WorkerThreadData {
  config: Config;
  /** The caller's log level; the thread's lines are written through the caller's logger. */
  logLevel: string;
  engineOptions?: Partial<EngineOptions>;
}

/** A start failure, as it crosses from the thread. */
export interface ThreadError {
  name: string;
  message: string;
  code?: BotErrorCode;
  fix?: string;
  detail?: string;
}

/** Thread → serve. */
export type ThreadMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'log'; line: string }
  | { type: 'metrics'; id: number; metrics: MetricsJson }
  | { type: 'preview'; id: number; preview: SyncPreview; inParts?: true }
  | { type: 'preview-part'; id: number; resources: PreviewResources }
  | { type: 'preview-failed'; id: number; error: ThreadError }
  | { type: 'closed' };

type PreviewResources = NonNullable<SyncPreview['diff']>['resources'];

/**
 * Most resource diffs in one message from the thread. A preview with more (the first diff of a 50,000-object app:
 * every object "to create") crosses in parts, each sent once serve has taken the one before: Node reads every
 * message queued on a port in one turn of the event loop, and copying 50,000 diffs in one piece held the bot's loop
 * ~330 ms; a part of 1,000 takes a few ms.
 */
const PREVIEW_PART_SIZE = 1000;

/** Serve → thread. */
export type HostMessage =
  | { type: 'metrics'; id: number }
  | { type: 'preview'; id: number; app: Application; operation: SyncOperation }
  | { type: 'preview-part-taken'; id: number }
  | { type: 'close'; graceMs?: number };

/**
 * The thread's side of sending previews: `send` posts a preview in one message, or its resource diffs in parts of
 * PREVIEW_PART_SIZE first, each once serve has `taken` the one before (its `preview-part-taken`).
 */
export function createPreviewSender(post: (message: ThreadMessage) => void): {
  send(id: number, preview: SyncPreview): Promise<void>;
  taken(id: number): void;
} {
  const receipts = new Map<number, () => void>();
  return {
    async send(id, preview) {
      const resources = preview.diff?.resources ?? [];
      if (!preview.diff || resources.length <= PREVIEW_PART_SIZE) {
        post({ type: 'preview', id, preview });
        return;
      }
      for (let i = 0; i < resources.length; i += PREVIEW_PART_SIZE) {
        await new Promise<void>((resolve) => {
          receipts.set(id, resolve);
          post({ type: 'preview-part', id, resources: resources.slice(i, i + PREVIEW_PART_SIZE) });
        });
      }
      const diff = { ...preview.diff, resources: [] };
      post({ type: 'preview', id, preview: { ...preview, diff }, inParts: true });
    },
    taken(id) {
      receipts.get(id)?.();
      receipts.delete(id);
    },
  };
}

export interface WorkerThread {
  /** Resolves once the worker takes jobs; rejects with why it could not start (a BotError for configuration). */
  readonly ready: Promise<void>;
  /** `up`, or why not (`starting`, `restarting: …`, `stopped`), for /healthz. */
  state(): string;
  /** The thread's metrics now; none when it does not answer within 2 s. */
  metrics(): Promise<MetricsJson>;
  /**
   * The preview of syncing `app` with `operation`, computed in the thread (its SyncPreviewer), without the diff's
   * unchanged resources (previewForTransfer). Rejects with the previewer's error (BotErrors keep code, fix and
   * detail), or when the thread is not up or ends before answering. No time limit, as on the bot's own thread.
   */
  preview(app: Application, operation: SyncOperation): Promise<SyncPreview>;
  close(graceMs?: number): Promise<void>;
}

const RESTART_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000];
const METRICS_TIMEOUT_MS = 2000;
/** How long close() waits past the grace period before terminating the thread (ms). */
const CLOSE_MARGIN_MS = 4000;

/**
 * Start the thread; `entry` is the module it runs (default worker-thread-entry; relative to this module, or a file
 * URL without its extension: tests give a thread of their own).
 */
export function startWorkerThread(
  data: WorkerThreadData,
  logger: Logger,
  entry = './worker-thread-entry',
): WorkerThread {
  let worker: Worker | undefined;
  let state = 'starting';
  let started = false;
  let closing = false;
  let failures = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  const answers = new Map<number, (metrics: MetricsJson) => void>();
  const previews = new Map<number, { resolve(preview: SyncPreview): void; reject(error: Error): void }>();
  /** The parts of previews that cross in parts (PREVIEW_PART_SIZE), by request. */
  const parts = new Map<number, PreviewResources[]>();
  let settle: { resolve(): void; reject(error: Error): void } | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => undefined);

  const spawn = () => {
    const thread = startModuleWorker(import.meta.url, entry, { workerData: data });
    worker = thread;
    thread.on('message', (message: ThreadMessage) => {
      if (message.type === 'log') relog(logger, message.line);
      else if (message.type === 'metrics') {
        answers.get(message.id)?.(message.metrics);
        answers.delete(message.id);
      } else if (message.type === 'preview-part') {
        const received = parts.get(message.id) ?? [];
        received.push(message.resources);
        parts.set(message.id, received);
        thread.postMessage({ type: 'preview-part-taken', id: message.id } satisfies HostMessage);
      } else if (message.type === 'preview' || message.type === 'preview-failed') {
        const asked = previews.get(message.id);
        const received = parts.get(message.id) ?? [];
        previews.delete(message.id);
        parts.delete(message.id);
        if (message.type === 'preview-failed') asked?.reject(revive(message.error));
        else if (!message.inParts || !message.preview.diff) asked?.resolve(message.preview);
        else {
          const { preview } = message;
          asked?.resolve({ ...preview, diff: { ...preview.diff!, resources: received.flat() } });
        }
      } else if (message.type === 'closed') {
        void thread.terminate();
      } else if (message.type === 'ready') {
        state = 'up';
        started = true;
        failures = 0;
        settle?.resolve();
      } else {
        if (started) logger.error({ err: message.error }, 'the worker thread could not start again');
        else settle?.reject(revive(message.error));
        void thread.terminate();
      }
    });
    thread.on('error', (err) => logger.error({ err }, 'the worker thread failed'));
    thread.on('exit', (exitCode) => {
      if (thread !== worker) return;
      worker = undefined;
      for (const answer of answers.values()) answer([]);
      answers.clear();
      for (const asked of previews.values()) {
        asked.reject(new Error(`the worker thread ended (exit code ${exitCode}) before the diff was made`));
      }
      previews.clear();
      parts.clear();
      if (closing || !started) {
        state = 'stopped';
        settle?.reject(new Error(`the worker thread ended (exit code ${exitCode}) before it started`));
        return;
      }
      const delayMs = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length - 1)]!;
      failures++;
      state = `restarting: the worker thread ended (exit code ${exitCode})`;
      logger.error({ exitCode, restartInMs: delayMs }, 'the worker thread ended; starting a new one');
      restartTimer = setTimeout(spawn, delayMs);
    });
  };
  spawn();

  return {
    ready,
    state: () => state,
    metrics() {
      const thread = worker;
      if (!thread || state !== 'up') return Promise.resolve([]);
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          answers.delete(id);
          resolve([]);
        }, METRICS_TIMEOUT_MS);
        answers.set(id, (metrics) => {
          clearTimeout(timer);
          resolve(metrics);
        });
        thread.postMessage({ type: 'metrics', id } satisfies HostMessage);
      });
    },
    preview(app, operation) {
      const thread = worker;
      if (!thread || state !== 'up')
        return Promise.reject(new Error(`the worker thread is not up (${state})`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        previews.set(id, { resolve, reject });
        try {
          thread.postMessage({ type: 'preview', id, app, operation } satisfies HostMessage);
        } catch (error) {
          previews.delete(id); // not sent (e.g. a value that cannot be copied): nothing will answer it
          reject(error);
        }
      });
    },
    async close(graceMs) {
      closing = true;
      clearTimeout(restartTimer);
      const thread = worker;
      if (!thread) {
        state = 'stopped';
        return;
      }
      const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
      thread.postMessage({
        type: 'close',
        ...(graceMs === undefined ? {} : { graceMs }),
      } satisfies HostMessage);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), (graceMs ?? 25_000) + CLOSE_MARGIN_MS);
      });
      const outcome = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (outcome === 'late') {
        logger.warn('the worker thread did not stop in time; terminating it');
        await thread.terminate();
      }
    },
  };
}

/** One of the thread's pino lines, written through `logger` (its level and fields; the time is now). */
function relog(logger: Logger, line: string): void {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  const { level, time: _time, pid: _pid, hostname: _hostname, msg, ...fields } = entry;
  const label = (logger.levels.labels[Number(level)] ?? 'info') as 'info';
  logger[label](fields, typeof msg === 'string' ? msg : '');
}

/** An error as it crosses to serve (BotErrors keep code, fix and detail). */
export function threadError(error: unknown): ThreadError {
  if (error instanceof BotError) {
    return {
      name: error.name,
      message: error.message,
      code: error.code,
      ...(error.fix === undefined ? {} : { fix: error.fix }),
      ...(error.detail === undefined ? {} : { detail: error.detail }),
    };
  }
  return {
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}

function revive(error: ThreadError): Error {
  if (error.code === undefined) return Object.assign(new Error(error.message), { name: error.name });
  return new BotError(error.code, error.message, {
    ...(error.fix === undefined ? {} : { fix: error.fix }),
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  });
}
