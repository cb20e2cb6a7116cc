/**
 * The garbage collector: ownerReferences drive cascading deletion.
 * - Background: once an owner is gone, each dependent loses the reference; a dependent with no owner left is
 *   deleted (also when its owners never existed).
 * - Foreground: an owner marked with the `foregroundDeletion` finalizer has its dependents deleted first
 *   (themselves in foreground); the finalizer is removed once none is left, which removes the owner.
 * - Orphan: the `orphan` finalizer strips the owner reference from every dependent, then is removed.
 */
import { typeKey } from '../api/resource-type.js';
import type { KubeObject } from '../store/kube-object.js';
import type { ControllerContext } from './controller-context.js';
import { WorkQueue } from './work-queue.js';

export function garbageCollector(ctx: ControllerContext): void {
  const { store, registry } = ctx.client;
  const queue = new WorkQueue(
    (uid) => collect(uid),
    (uid, err) => ctx.logger.warn({ uid, err }, 'garbage collection failed'),
  );
  store.subscribe((e) => {
    // Read through the stored object: no copy of every object that changes in the cluster.
    const { metadata } = e.stored ?? e.object;
    const { uid, deletionTimestamp, finalizers = [], ownerReferences = [] } = metadata;
    if (
      e.type === 'DELETED' ||
      (deletionTimestamp && finalizers.some((f) => f === 'foregroundDeletion' || f === 'orphan'))
    )
      queue.add(uid ?? '');
    if (e.type !== 'DELETED' && ownerReferences.length > 0)
      queue.add(`dependent:${e.typeKey}:${metadata.namespace ?? ''}:${metadata.name}`);
    // A dependent that went away may unblock an owner waiting in foreground deletion.
    if (e.type === 'DELETED') for (const ref of ownerReferences) queue.add(ref.uid);
  });

  // Both through the store's uid and owner indexes: the cost of a collection does not grow with the store.
  function findByUid(uid: string): KubeObject | undefined {
    return store.findByUid(uid);
  }

  function dependentsOf(uid: string): KubeObject[] {
    return store.dependentsOf(uid);
  }

  function collect(id: string): void {
    if (id.startsWith('dependent:')) {
      checkDependent(id);
      return;
    }
    const owner = findByUid(id);
    const finalizers = owner?.metadata.finalizers ?? [];
    if (owner && finalizers.includes('orphan')) {
      for (const dep of dependentsOf(id)) dropReference(dep, id);
      removeFinalizer(owner, 'orphan');
      return;
    }
    if (owner && finalizers.includes('foregroundDeletion')) {
      const dependents = dependentsOf(id);
      for (const dep of dependents)
        if (!dep.metadata.deletionTimestamp) ctx.client.delete(refOf(dep), 'Foreground');
      if (dependentsOf(id).length === 0) removeFinalizer(owner, 'foregroundDeletion');
      return;
    }
    if (!owner) for (const dep of dependentsOf(id)) dropReference(dep, id);
  }

  /** A dependent whose owners are all gone (never existed, or deleted) is deleted. */
  function checkDependent(id: string): void {
    const [, key = '', namespace = '', name = ''] = id.split(':');
    const dep = store.get(key, namespace || undefined, name);
    if (!dep) return;
    const missing = (dep.metadata.ownerReferences ?? []).filter((r) => !findByUid(r.uid));
    for (const ref of missing) dropReference(dep, ref.uid);
  }

  function dropReference(dep: KubeObject, ownerUid: string): void {
    const live = store.get(typeOf(dep), dep.metadata.namespace, dep.metadata.name ?? '');
    if (!live) return;
    const remaining = (live.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
    const orphaning = findByUid(ownerUid)?.metadata.finalizers?.includes('orphan') === true;
    if (remaining.length === 0 && !orphaning) {
      ctx.client.delete(refOf(live), 'Background');
      return;
    }
    const { ownerReferences: _dropped, ...metadata } = live.metadata;
    ctx.client.update({
      ...live,
      metadata: remaining.length > 0 ? { ...metadata, ownerReferences: remaining } : metadata,
    });
  }

  function removeFinalizer(owner: KubeObject, finalizer: string): void {
    const finalizers = (owner.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    ctx.client.update({ ...owner, metadata: { ...owner.metadata, finalizers } });
  }

  function typeOf(obj: KubeObject): string {
    const type = registry.findKind(obj.apiVersion, obj.kind);
    return type ? typeKey(type) : '';
  }

  function refOf(obj: KubeObject) {
    return {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: obj.metadata.name ?? '',
      namespace: obj.metadata.namespace,
    };
  }
}
