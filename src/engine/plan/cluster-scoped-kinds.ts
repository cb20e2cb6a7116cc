/**
 * Which planned objects are cluster-scoped: what discovery says when the kind is served, else (no cluster to ask,
 * or a kind whose CRD this sync creates) Kubernetes' built-in cluster-scoped kinds (`kubectl api-resources
 * --namespaced=false` on v1.32) plus the kinds of the plan's own CustomResourceDefinitions with `spec.scope:
 * Cluster` — Argo CD's `IsNamespacedOrUnknown` (controller/state.go DeduplicateTargetObjects). The planner gives
 * every target object the destination namespace (gitops-engine does, spec §3.1 step 4, so an apply can never land
 * in the wrong namespace); the task, its ResourceResult, its events and `plan` carry none for these, as the
 * cluster stores none.
 */
import type { SyncTask } from '../sync-task.js';

const BUILTIN_CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  '/ComponentStatus',
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'authentication.k8s.io/SelfSubjectReview',
  'authentication.k8s.io/TokenReview',
  'authorization.k8s.io/SelfSubjectAccessReview',
  'authorization.k8s.io/SelfSubjectRulesReview',
  'authorization.k8s.io/SubjectAccessReview',
  'certificates.k8s.io/CertificateSigningRequest',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'networking.k8s.io/IngressClass',
  'node.k8s.io/RuntimeClass',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/VolumeAttachment',
]);

/**
 * A predicate: is this task's object cluster-scoped? `namespacedByDiscovery` answers for served kinds (undefined =
 * not served, or no cluster); otherwise built in, or a Cluster-scoped CRD of the same plan.
 */
export function clusterScopedIn(
  tasks: readonly SyncTask[],
  namespacedByDiscovery: (task: SyncTask) => boolean | undefined = () => undefined,
): (task: SyncTask) => boolean {
  const kinds = new Set(BUILTIN_CLUSTER_SCOPED);
  for (const task of tasks) {
    if (task.kind !== 'CustomResourceDefinition') continue;
    const spec = task.targetObj?.spec as
      | { scope?: string; group?: string; names?: { kind?: string } }
      | undefined;
    if (spec?.scope === 'Cluster' && spec.names?.kind) kinds.add(`${spec.group ?? ''}/${spec.names.kind}`);
  }
  return (task) => {
    const namespaced = namespacedByDiscovery(task);
    return namespaced === undefined ? kinds.has(`${task.group}/${task.kind}`) : !namespaced;
  };
}

/** Sets `namespace` to '' on every cluster-scoped task (clusterScopedIn): the SyncTask contract. */
export function clearClusterScopedNamespaces(
  tasks: readonly SyncTask[],
  namespacedByDiscovery?: (task: SyncTask) => boolean | undefined,
): void {
  const clusterScoped = clusterScopedIn(tasks, namespacedByDiscovery);
  for (const task of tasks) if (task.namespace !== '' && clusterScoped(task)) task.namespace = '';
}
