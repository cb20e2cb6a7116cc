/**
 * TimeSlice — cooperative time slicing for loops over thousands of objects (parsing, planning, comparing): such a
 * loop asks `due()` per item and, when it is, awaits `pause()`, which yields to the event loop (setImmediate) so
 * HTTP requests (`/healthz`, Slack acks), timers and lock renewals run between slices. A slice is `budgetMs` of
 * synchronous work (default 20 ms). Pure: no imports, so the engine and the adapters share it.
 *
 * `pause()` also observes the optional AbortSignal: an aborted one rejects with `AbortedError`, so a cancelled
 * operation stops within one slice whatever loop it is in.
 */
export class TimeSlice {
  private started = performance.now();
  private readonly budgetMs: number;
  private readonly signal: AbortSignal | undefined;

  constructor(budgetMs = DEFAULT_SLICE_MS, signal?: AbortSignal) {
    this.budgetMs = budgetMs;
    this.signal = signal;
  }

  /** True once this slice has used its budget: the caller should `await pause()` before the next item. */
  due(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  /** Yield to the event loop, then start a new slice. @throws AbortedError when the signal is aborted. */
  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.started = performance.now();
    if (this.signal?.aborted) throw new AbortedError();
  }

  /** `pause()` when due, else nothing (an await per item is a microtask: use `due()` in hot loops). */
  async maybePause(): Promise<void> {
    if (this.due()) await this.pause();
  }

  /** Runs `work` to its end, pausing at its yield points whenever this slice is due. */
  async run<T>(work: SlicedWork<T>): Promise<T> {
    for (;;) {
      const step = work.next();
      if (step.done) return step.value;
      if (this.due()) await this.pause();
    }
  }
}

/**
 * Synchronous work over many items written once for both callers: a generator that `yield`s where it may pause
 * (every ITEMS_PER_YIELD items of a loop) and returns its result. `TimeSlice.run` pauses at those points when the
 * slice is due (the bot and worker); `runAtOnce` ignores them (the CLI, tests, small inputs).
 */
export type SlicedWork<T> = Generator<void, T, void>;

/** How many items a SlicedWork loop handles between two yield points (a yield costs a generator resume). */
export const ITEMS_PER_YIELD = 256;

/** Runs `work` to its end without pausing. */
export function runAtOnce<T>(work: SlicedWork<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/**
 * Let the event loop run (timers, I/O, other requests) before going on: a macrotask boundary, unlike `await` of a
 * settled promise. Between the steps of work that is long for large Applications (the planner's two builds).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** Synchronous work between two yields to the event loop, in ms. */
const DEFAULT_SLICE_MS = 20;

/** A loop stopped by its AbortSignal (a cancelled operation). */
export class AbortedError extends Error {
  constructor() {
    super('stopped: the operation was cancelled');
    this.name = 'AbortedError';
  }
}
