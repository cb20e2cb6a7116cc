/**
 * LiveCache — the engine's view of live objects: fed by watches on every collection the operation touches and by
 * the API server's answers to our own writes; objects never seen are read with GET once. `invalidate()` (the
 * polling fallback) forgets everything so the next pass re-reads. Every change wakes the runner.
 */
import type { KubeObject } from '../domain/index.js';
import type { Cluster, ClusterWatch, ObjectChange, ObjectRef, WatchTarget } from './cluster.js';

function refKey(ref: ObjectRef): string {
  return `${ref.apiVersion}|${ref.kind}|${ref.namespace}|${ref.name}`;
}

function targetKey(target: WatchTarget): string {
  return `${target.apiVersion}|${target.kind}|${target.namespace}`;
}

/** True when `candidate` is not older than `current` (resourceVersions compared numerically when both are). */
function isNewer(candidate: KubeObject, current: KubeObject | null | undefined): boolean {
  const a = Number(candidate.metadata.resourceVersion);
  const b = Number(current?.metadata.resourceVersion);
  return !(Number.isFinite(a) && Number.isFinite(b)) || a >= b;
}

export class LiveCache {
  private readonly cluster: Cluster;
  private readonly onChange: () => void;
  private readonly objects = new Map<string, KubeObject | null>();
  private readonly watched = new Set<string>();
  private readonly watches: ClusterWatch[] = [];

  constructor(cluster: Cluster, onChange: () => void) {
    this.cluster = cluster;
    this.onChange = onChange;
  }

  /** Starts one watch per collection not watched yet (`targets` may name a collection several times). */
  watch(targets: readonly WatchTarget[]): void {
    const fresh: WatchTarget[] = [];
    for (const t of targets) {
      const key = targetKey(t);
      if (this.watched.has(key)) continue;
      this.watched.add(key);
      fresh.push(t);
    }
    if (fresh.length === 0) return;
    this.watches.push(this.cluster.watch(fresh, (change) => this.observe(change)));
  }

  /** The cached object, reading it once with GET when it was never seen. */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const key = refKey(ref);
    if (!this.objects.has(key)) this.objects.set(key, (await this.cluster.get(ref)) ?? null);
    return this.objects.get(key) ?? undefined;
  }

  /** Always reads from the API server (and caches the answer). */
  async fresh(ref: ObjectRef): Promise<KubeObject | undefined> {
    const obj = (await this.cluster.get(ref)) ?? null;
    this.objects.set(refKey(ref), obj);
    return obj ?? undefined;
  }

  /** Records the API server's answer to a write. */
  put(ref: ObjectRef, obj: KubeObject | undefined): void {
    const key = refKey(ref);
    if (obj === undefined) this.objects.set(key, null);
    else if (isNewer(obj, this.objects.get(key))) this.objects.set(key, obj);
  }

  /** Cached live objects matching `predicate` (objects seen through watches, reads or writes). */
  find(predicate: (obj: KubeObject) => boolean): KubeObject[] {
    return [...this.objects.values()].filter((o): o is KubeObject => o !== null && predicate(o));
  }

  /** Forgets everything (polling fallback). */
  invalidate(): void {
    this.objects.clear();
  }

  stop(): void {
    for (const w of this.watches) w.stop();
    this.watches.length = 0;
  }

  private observe(change: ObjectChange): void {
    const obj = change.object;
    const ref = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      namespace: obj.metadata.namespace ?? '',
      name: obj.metadata.name ?? '',
    };
    const key = refKey(ref);
    if (change.type === 'DELETED') this.objects.set(key, null);
    else if (isNewer(obj, this.objects.get(key))) this.objects.set(key, obj);
    this.onChange();
  }
}
