/**
 * What Argo CD does when an ApplicationSet stops generating an Application (applicationset_controller.go
 * deleteInCluster, Application finalizers): with `syncPolicy.applicationsSync` `create-only` or `create-update` the
 * Application is kept (so are its resources); otherwise (`sync`, the default, or `create-delete`) the Application is
 * deleted — and so is an Application whose ApplicationSet is deleted (its ownerReference). A deleted Application's
 * resources are deleted only when it carries the resources finalizer (`resources-finalizer.argocd.argoproj.io`,
 * which the ApplicationSet adds unless `preserveResourcesOnDeletion: true` or the template sets finalizers);
 * without it they stay in the cluster.
 */
import type { Application } from '../../domain/index.js';
import type { ApplicationSetSummary } from '../load-application-sources.js';

export interface RemovalDecision {
  /** Argo CD deletes the Application's resources: wavesync deletes them too (src/deletion). */
  deleteResources: boolean;
  /** Why, in Argo CD's terms, for the announcement. */
  why: string;
}

const RESOURCES_FINALIZER = /^resources-finalizer\.argocd\.argoproj\.io(\/(foreground|background))?$/;

export function removalDecision(removed: {
  application: Pick<Application, 'manifest'>;
  applicationSet: Pick<ApplicationSetSummary, 'applicationsSync' | 'preserveResourcesOnDeletion'>;
  applicationSetRemoved: boolean;
}): RemovalDecision {
  const policy = removed.applicationSet.applicationsSync;
  if (!removed.applicationSetRemoved && (policy === 'create-only' || policy === 'create-update')) {
    return {
      deleteResources: false,
      why: `applicationsSync: ${policy} keeps Applications that are no longer generated; their resources stay`,
    };
  }
  const finalizers = (removed.application.manifest.metadata as { finalizers?: unknown }).finalizers;
  const hasFinalizer =
    Array.isArray(finalizers) && finalizers.some((f) => RESOURCES_FINALIZER.test(String(f)));
  const deleted = removed.applicationSetRemoved
    ? 'the ApplicationSet is gone, so its Applications are deleted'
    : `applicationsSync: ${policy} deletes Applications that are no longer generated`;
  if (hasFinalizer) {
    return {
      deleteResources: true,
      why: `${deleted}, and this one's resources finalizer deletes its resources`,
    };
  }
  const preserved = removed.applicationSet.preserveResourcesOnDeletion
    ? 'preserveResourcesOnDeletion: true'
    : 'the template sets finalizers without the resources finalizer';
  return { deleteResources: false, why: `${deleted}; its resources stay (${preserved})` };
}
