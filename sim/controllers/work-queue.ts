/**
 * A de-duplicating work queue: store listeners enqueue keys synchronously, reconciles run on the next turn
 * of the event loop (never inside a store write), each key at most once per batch.
 */

export class WorkQueue {
  private readonly pending = new Set<string>();
  private scheduled = false;
  private stopped = false;
  private readonly reconcile: (key: string) => void;
  private readonly onError: (key: string, error: unknown) => void;

  constructor(reconcile: (key: string) => void, onError: (key: string, error: unknown) => void) {
    this.reconcile = reconcile;
    this.onError = onError;
    this.reconcile = reconcile;
  }

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
  }

  private drain(): void {
    this.scheduled = false;
    const keys = [...this.pending];
    this.pending.clear();
    for (const key of keys) {
      if (this.stopped) return;
      try {
        this.reconcile(key);
      } catch (error) {
        this.onError(key, error);
      }
    }
  }
}

/** `namespace/name` key of an object. */
export function keyOf(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}

export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf('/');
  const namespace = key.slice(0, slash);
  return { namespace: namespace === '' ? undefined : namespace, name: key.slice(slash + 1) };
}
