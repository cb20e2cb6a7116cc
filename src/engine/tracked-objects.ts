/**
 * Tracked live objects — wavesync tracks what an Application manages with the label
 * `app.kubernetes.io/instance=<application>` (TRACKING_LABEL; Argo CD's `label` tracking method, spec §7), which
 * the engine puts on every object it applies, hooks included. Prune candidates are the labelled objects of every
 * listable kind, minus objects owned by another object (ownerReferences: e.g. the ReplicaSets and Pods of a
 * Deployment whose template carries the label) — the top-level rule of Argo CD's cluster cache.
 */
import { type KubeObject, TRACKING_LABEL } from '../domain/index.js';
import type { Cluster } from './cluster.js';
import type { SyncContext } from './sync-context.js';

/** `obj` with the tracking label for `application` (a copy; the input is never mutated). */
export function withTrackingLabel(obj: KubeObject, application: string): KubeObject {
  const labels = { ...(obj.metadata.labels ?? {}), [TRACKING_LABEL]: application };
  return { ...obj, metadata: { ...obj.metadata, labels } };
}

/** Every top-level live object labelled for the application, across all namespaces and listable kinds. */
export function listTrackedObjects(ctx: SyncContext): Promise<KubeObject[]> {
  return listTrackedLiveObjects(ctx.cluster, ctx.application);
}

/**
 * The same for callers outside a sync (drift detection): the top-level objects labelled
 * `app.kubernetes.io/instance=<application>` in `cluster`. Rejects with the cluster's error when a list fails.
 */
export async function listTrackedLiveObjects(
  cluster: Pick<Cluster, 'listKinds' | 'list'>,
  application: string,
): Promise<KubeObject[]> {
  const kinds = await cluster.listKinds();
  const labelSelector = `${TRACKING_LABEL}=${application}`;
  const lists = await Promise.all(
    kinds.map((k) => cluster.list({ apiVersion: k.apiVersion, kind: k.kind, namespace: '', labelSelector })),
  );
  return lists.flat().filter((obj) => (obj.metadata.ownerReferences ?? []).length === 0);
}
