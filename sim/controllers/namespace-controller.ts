/**
 * Namespaces: every namespace gets its `default` ServiceAccount; a deleted (Terminating) namespace has all of its
 * content deleted, and once nothing is left its `kubernetes` finalizer is cleared and it disappears. Objects
 * held by their own finalizers keep the namespace Terminating, as in a real cluster.
 */

import { typeKey } from '../api/resource-type.js';
import type { KubeObject } from '../store/kube-object.js';
import type { ControllerContext } from './controller-context.js';
import { WorkQueue } from './work-queue.js';

export function namespaceController(ctx: ControllerContext): void {
  const { store, registry } = ctx.client;
  const queue = new WorkQueue(reconcile, (name, err) =>
    ctx.logger.warn({ name, err }, 'namespace reconcile failed'),
  );
  store.subscribe((e) => {
    const { metadata } = e.stored ?? e.object;
    if (e.typeKey === '/namespaces') queue.add(metadata.name ?? '');
    else if (e.type === 'DELETED' && metadata.namespace) queue.add(metadata.namespace);
  });

  function reconcile(name: string): void {
    const ns = ctx.client.get('v1', 'Namespace', undefined, name);
    if (!ns) return;
    if (!ns.metadata.deletionTimestamp) {
      ensureServiceAccount(name);
      return;
    }
    const seen = new Set<string | undefined>();
    const content = registry
      .all()
      .filter((t) => t.namespaced)
      .flatMap((t) => store.scan(typeKey(t), name))
      .filter((o) => !seen.has(o.metadata.uid) && seen.add(o.metadata.uid));
    for (const obj of content) {
      if (!obj.metadata.deletionTimestamp)
        ctx.client.delete({
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name ?? '',
          namespace: name,
        });
    }
    if (registry.all().some((t) => t.namespaced && store.scan(typeKey(t), name).length > 0)) return;
    finalize(ns);
  }

  function ensureServiceAccount(namespace: string): void {
    if (ctx.client.get('v1', 'ServiceAccount', namespace, 'default')) return;
    ctx.client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
  }

  /** Clear spec.finalizers; the namespace goes once metadata.finalizers (if any) are cleared too. */
  function finalize(ns: KubeObject): void {
    if ((ns.metadata.finalizers ?? []).length > 0) return;
    store.remove('/namespaces', undefined, ns.metadata.name ?? '');
  }
}
