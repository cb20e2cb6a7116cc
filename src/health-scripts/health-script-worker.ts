/**
 * The health-script worker thread (started by health-script-runner.ts): meters Uint8Arrays (byte-budget.ts)
 * before fengari loads, then runs the requests it is sent (in batches), in order, with the in-process VM, and
 * answers `[id, health]` pairs in batches (every 10 ms at least), telling the runner through shared memory
 * which run is going on. Its heap is capped by the runner (resourceLimits) and the runner terminates it when a run
 * outlives the time limit; neither can happen in the main thread, whose event loop never waits for a script.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { HealthStatus } from '../domain/index.js';
import { meterByteArrays } from './byte-budget.js';

export interface WorkerScript {
  name: string;
  source: string;
  openLibs: boolean;
}

/** One run: the script by number, its text the first time this worker is sent it. */
export interface WorkerRequest {
  id: number;
  script: number;
  define?: WorkerScript;
  obj: unknown;
}

export type WorkerMessage = { ready: true } | { results: [id: number, health: HealthStatus][] };

export interface WorkerOptions {
  timeoutMs: number;
  byteBudget: number;
  /**
   * Shared with the runner: [id of the run going on (0: none), when it started (performance.timeOrigin +
   * performance.now(), ms)], so that its watchdog knows which run to stop without a message per run.
   */
  progress: SharedArrayBuffer;
}

/** A batch's answers go back at least this often, and at its end. */
const FLUSH_MS = 10;

meterByteArrays();
const { createHealthScriptVm } = await import('./run-health-script.js');
const port = parentPort;
if (port === null) throw new Error('health-script-worker.ts runs only as a worker thread');
const vm = createHealthScriptVm(workerData as WorkerOptions);
const scripts = new Map<number, WorkerScript>();
const progress = new Float64Array((workerData as WorkerOptions).progress);
port.on('message', (batch: WorkerRequest[]) => {
  let results: [number, HealthStatus][] = [];
  let flushed = performance.now();
  for (const request of batch) {
    if (request.define) scripts.set(request.script, request.define);
    const script = scripts.get(request.script);
    progress[1] = performance.timeOrigin + performance.now();
    progress[0] = request.id;
    const health: HealthStatus = script
      ? vm.run(script, request.obj)
      : { status: 'Unknown', message: `health script ${request.script} was never sent` };
    progress[0] = 0;
    results.push([request.id, health]);
    if (performance.now() - flushed >= FLUSH_MS) {
      port.postMessage({ results } satisfies WorkerMessage);
      results = [];
      flushed = performance.now();
    }
  }
  if (results.length > 0) port.postMessage({ results } satisfies WorkerMessage);
});
port.postMessage({ ready: true } satisfies WorkerMessage);
