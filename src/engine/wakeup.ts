/**
 * Wakeup — how a loop sleeps without fixed sleeps: events call `notify()`; the loop waits for one with a timeout
 * (the polling fallback). Used by the sync runner and the Application deletion (watch events), and by the Slack
 * reporters' delivery loops (a new line to post). Pure: no imports, so the engine and the adapters share it.
 *
 * Two ways to wait, kept apart on purpose:
 * - `wait()` is latched: it resolves at once when `notify()` was called since the last `reset()` (the runner
 *   resets, then reads the cluster, then waits: an event that arrived while it read is not lost).
 * - `sleep()` is edge-triggered: it forgets earlier notifications and waits for the next one (a delivery loop
 *   that re-checks its own state before sleeping: a notification that arrived while it worked is already seen).
 */
export class Wakeup {
  private dirty = false;
  private waiter: ((woken: boolean) => void) | undefined;

  notify(): void {
    this.dirty = true;
    this.waiter?.(true);
  }

  reset(): void {
    this.dirty = false;
  }

  /**
   * Resolves true on the first `notify()` since the last `reset()` (at once if one already came), false after
   * `timeoutMs` (never, when undefined) or on abort.
   */
  wait(timeoutMs: number | undefined, signal?: AbortSignal): Promise<boolean> {
    if (this.dirty || signal?.aborted) return Promise.resolve(this.dirty);
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiter = undefined;
        resolve(woken);
      };
      const onAbort = () => done(false);
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(() => done(false), Math.max(0, timeoutMs));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = done;
    });
  }

  /**
   * `reset()` then `wait(timeoutMs)`: resolves true on the next `notify()`, false after `timeoutMs` (never, when
   * undefined).
   */
  sleep(timeoutMs: number | undefined): Promise<boolean> {
    this.reset();
    return this.wait(timeoutMs);
  }
}
