/**
 * A one-shot wake-up for a background loop: `sleep(ms)` resolves after `ms` (or never, when undefined) or as
 * soon as `wake()` is called, whichever comes first.
 */
export class WakeSignal {
  private wakeUp: (() => void) | undefined;

  sleep(ms: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }
}
