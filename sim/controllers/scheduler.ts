/**
 * Timers in simulated seconds: `after(5, fn)` fires after 5 s / speed of wall-clock time. All timers are
 * cancelled on stop(), so a stopped simulator leaves nothing behind.
 */

export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  readonly speed: number;

  /** @param speed time factor: 10 means simulated time runs ten times faster than the wall clock. */
  constructor(speed: number) {
    this.speed = speed;
  }

  private readonly startedAt = Date.now();

  /** Simulated seconds since the simulator started (wall time × speed). */
  now(): number {
    return ((Date.now() - this.startedAt) * this.speed) / 1000;
  }

  /** Wall-clock milliseconds of `seconds` simulated seconds. */
  ms(seconds: number): number {
    return (seconds * 1000) / this.speed;
  }

  /** Run fn after `seconds` simulated seconds; returns a cancel function. */
  after(seconds: number, fn: () => void): () => void {
    if (this.stopped) return () => undefined;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, this.ms(seconds));
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
