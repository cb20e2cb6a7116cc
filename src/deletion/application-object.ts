/**
 * The Application objects a deletion meets in the cluster: the deleted Application's own (removed last, its
 * resources finalizers first, as Argo CD's controller does once the resources are gone), and child Applications
 * among its resources (App of Apps) whose resources go with them.
 */
import type { Application, KubeObject } from '../domain/index.js';
import { type Cluster, isNotFound } from '../engine/index.js';
import { CASCADE_FINALIZERS } from './application-deletion.js';

/** The Application object's own apiVersion/kind (argoproj.io). */
const APPLICATION_API_VERSION = 'argoproj.io/v1alpha1';

/** Delete `app`'s Application object when the cluster has one; true when it was there. */
export async function removeApplicationObject(cluster: Cluster, app: Application): Promise<boolean> {
  if (!(await cluster.discover(APPLICATION_API_VERSION, 'Application'))) return false;
  const ref = {
    apiVersion: APPLICATION_API_VERSION,
    kind: 'Application',
    namespace: app.namespace,
    name: app.name,
  };
  const live = await cluster.get(ref);
  if (!live) return false;
  // The controller's part: the resources are handled, so the finalizers that asked for it are removed.
  for (const finalizer of live.metadata.finalizers ?? []) {
    if (CASCADE_FINALIZERS.includes(finalizer)) await cluster.removeFinalizer(ref, finalizer);
  }
  try {
    await cluster.delete(ref, { propagationPolicy: 'Background' });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  return true;
}

/** An argoproj.io Application object with a resources finalizer: a child whose resources go with it. */
export function isFinalizedChildApplication(object: KubeObject): boolean {
  return (
    object.kind === 'Application' &&
    object.apiVersion.startsWith('argoproj.io/') &&
    (object.metadata.finalizers ?? []).some((f) => CASCADE_FINALIZERS.includes(f))
  );
}
