/**
 * Kind order inside one phase and wave: Helm's install order, as gitops-engine `pkg/sync/sync_tasks.go` keeps it.
 * Each listed kind gets `index − 35` (Namespace −35 … APIService −1); every other kind (custom resources,
 * Endpoints, Application, …) gets 0 and so sorts after all listed kinds. Only the kind string counts, not the
 * group: a custom kind named `Service` sorts like the core Service.
 */
export const KIND_ORDER: readonly string[] = [
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'IngressClass',
  'Ingress',
  'APIService',
];

const orderByKind = new Map(KIND_ORDER.map((kind, index) => [kind, index - KIND_ORDER.length]));

/** Sort value of a kind: −35 for Namespace up to −1 for APIService; 0 for any kind not in KIND_ORDER. */
export function kindOrderOf(kind: string): number {
  return orderByKind.get(kind) ?? 0;
}
