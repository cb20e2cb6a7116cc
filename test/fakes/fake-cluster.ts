/**
 * FakeCluster — an in-memory Cluster for fast unit tests of the sync engine's step function. It keeps objects,
 * bumps resourceVersion/generation, honours finalizers on delete, notifies watchers, records every write in
 * `log`, and lets a test script controllers with `onWrite` (e.g. complete a Job after it is created).
 * It does not try to be Kubernetes: the Done-means tests run against the simulator over HTTP.
 */
import type { KubeObject } from '../../src/domain/index.js';
import {
  type ApiResourceInfo,
  type Cluster,
  ClusterError,
  type ObjectChange,
  type ObjectRef,
  refOf,
  type WatchTarget,
} from '../../src/engine/cluster.js';

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
]);

export interface WriteRecord {
  verb: 'apply' | 'create' | 'replace' | 'delete' | 'dryRun';
  kind: string;
  name: string;
}

function key(ref: ObjectRef): string {
  return `${ref.apiVersion}|${ref.kind}|${ref.namespace}|${ref.name}`;
}

export class FakeCluster implements Cluster {
  readonly objects = new Map<string, KubeObject>();
  readonly log: WriteRecord[] = [];
  readonly kinds = new Map<string, ApiResourceInfo>();
  /** Called after every real write; may change objects with `update`. */
  onWrite: (obj: KubeObject, verb: WriteRecord['verb']) => void = () => {};
  /** Return a message to reject a write (dry runs included), as the API server would with 422. */
  reject: (obj: KubeObject) => string | undefined = () => undefined;
  private version = 1;
  private readonly watchers = new Set<(change: ObjectChange) => void>();

  constructor(kinds: [apiVersion: string, kind: string][] = []) {
    const defaults: [string, string][] = [
      ['v1', 'Namespace'],
      ['v1', 'ConfigMap'],
      ['v1', 'Pod'],
      ['v1', 'Service'],
      ['apps/v1', 'Deployment'],
      ['batch/v1', 'Job'],
    ];
    for (const [apiVersion, kind] of [...defaults, ...kinds]) {
      this.kinds.set(`${apiVersion}/${kind}`, {
        name: `${kind.toLowerCase()}s`,
        namespaced: !CLUSTER_SCOPED.has(kind),
      });
    }
  }

  async discover(apiVersion: string, kind: string) {
    return this.kinds.get(`${apiVersion}/${kind}`);
  }

  async listKinds() {
    return [...this.kinds].map(([k, info]) => {
      const slash = k.lastIndexOf('/');
      return { apiVersion: k.slice(0, slash), kind: k.slice(slash + 1), namespaced: info.namespaced };
    });
  }

  async get(ref: ObjectRef) {
    const obj = this.objects.get(key(ref));
    return obj && structuredClone(obj);
  }

  async list(query: { apiVersion: string; kind: string; namespace: string; labelSelector?: string }) {
    const [label, value] = (query.labelSelector ?? '').split('=');
    return [...this.objects.values()].filter(
      (o) =>
        o.apiVersion === query.apiVersion &&
        o.kind === query.kind &&
        (query.namespace === '' || o.metadata.namespace === query.namespace) &&
        (label === '' || label === undefined || o.metadata.labels?.[label] === value),
    );
  }

  async apply(obj: KubeObject, options: { dryRun: boolean }) {
    return this.write(obj, options.dryRun ? 'dryRun' : 'apply');
  }

  async create(obj: KubeObject, options: { dryRun: boolean }) {
    if (this.objects.has(key(refOf(obj))))
      throw new ClusterError('already exists', { statusCode: 409, transient: false });
    return this.write(obj, options.dryRun ? 'dryRun' : 'create');
  }

  async replace(obj: KubeObject, options: { dryRun: boolean }) {
    return this.write(obj, options.dryRun ? 'dryRun' : 'replace');
  }

  async delete(ref: ObjectRef) {
    const obj = this.objects.get(key(ref));
    if (!obj) return false;
    this.log.push({ verb: 'delete', kind: ref.kind, name: ref.name });
    if ((obj.metadata.finalizers ?? []).length > 0) {
      this.update(ref, (o) => {
        o.metadata.deletionTimestamp = new Date().toISOString();
      });
    } else this.remove(ref);
    return true;
  }

  async removeFinalizer(ref: ObjectRef, finalizer: string, _current?: KubeObject) {
    const obj = this.objects.get(key(ref));
    if (!obj) return;
    this.update(ref, (o) => {
      o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    });
    const after = this.objects.get(key(ref));
    if (after?.metadata.deletionTimestamp && (after.metadata.finalizers ?? []).length === 0) this.remove(ref);
  }

  watch(_targets: readonly WatchTarget[], onChange: (change: ObjectChange) => void) {
    this.watchers.add(onChange);
    return { stop: () => this.watchers.delete(onChange) };
  }

  async podLogs() {
    return ['log line'];
  }

  /** Mutates a stored object (a controller's status update) and notifies watchers. */
  update(ref: ObjectRef, change: (obj: KubeObject) => void): void {
    const obj = this.objects.get(key(ref));
    if (!obj) return;
    change(obj);
    obj.metadata.resourceVersion = String(++this.version);
    this.notify({ type: 'MODIFIED', object: structuredClone(obj) });
  }

  /** Names written with `verb`, in order. */
  written(verb: WriteRecord['verb'] = 'apply'): string[] {
    return this.log.filter((w) => w.verb === verb).map((w) => `${w.kind}/${w.name}`);
  }

  private remove(ref: ObjectRef): void {
    const obj = this.objects.get(key(ref));
    this.objects.delete(key(ref));
    if (obj) this.notify({ type: 'DELETED', object: structuredClone(obj) });
  }

  private write(obj: KubeObject, verb: WriteRecord['verb']): KubeObject {
    const problem = this.reject(obj);
    if (problem) throw new ClusterError(problem, { statusCode: 422, reason: 'Invalid', transient: false });
    if (!this.kinds.has(`${obj.apiVersion}/${obj.kind}`)) {
      throw new ClusterError('the server could not find the requested resource', {
        statusCode: 404,
        transient: false,
      });
    }
    this.log.push({ verb, kind: obj.kind, name: obj.metadata.name ?? '' });
    const ref = refOf(obj);
    const existing = this.objects.get(key(ref));
    const stored: KubeObject = structuredClone({ ...existing, ...obj, status: existing?.status });
    stored.metadata = {
      ...obj.metadata,
      uid: existing?.metadata.uid ?? `uid-${this.version}`,
      creationTimestamp: existing?.metadata.creationTimestamp ?? new Date().toISOString(),
      generation: (existing?.metadata.generation ?? 0) + 1,
      resourceVersion: String(++this.version),
    };
    if (verb === 'dryRun') return stored;
    this.objects.set(key(ref), stored);
    this.notify({ type: existing ? 'MODIFIED' : 'ADDED', object: structuredClone(stored) });
    this.onWrite(structuredClone(stored), verb);
    return structuredClone(stored);
  }

  private notify(change: ObjectChange): void {
    queueMicrotask(() => {
      for (const watcher of this.watchers) watcher(change);
    });
  }
}
