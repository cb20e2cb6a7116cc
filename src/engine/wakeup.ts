/**
 * Wakeup — how the runner sleeps between passes without fixed sleeps: watch events call `notify()`; `wait()`
 * resolves on the first notification since the last `reset()`, on abort, or after a timeout (the polling
 * fallback). Resolves true when woken by an event.
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

  wait(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.dirty || signal?.aborted) return Promise.resolve(this.dirty);
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiter = undefined;
        resolve(woken);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = done;
    });
  }
}
