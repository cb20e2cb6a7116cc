/**
 * The built-in kinds the simulator serves (a typical application's kinds), with the discovery data
 * kube-apiserver 1.32 reports for them.
 */
import { ALL_VERBS, type ResourceType } from './resource-type.js';

const SPEC_STATUS = ['spec', 'status'];

interface Row {
  gv: string;
  kind: string;
  plural: string;
  ns: boolean;
  short?: string[];
  sub?: string[];
  gen?: boolean;
  fields?: string[];
  verbs?: string[];
}

const ROWS: Row[] = [
  { gv: 'v1', kind: 'Namespace', plural: 'namespaces', ns: false, short: ['ns'], sub: ['status'] },
  {
    gv: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    ns: true,
    short: ['cm'],
    fields: ['data', 'binaryData', 'immutable'],
  },
  {
    gv: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    ns: true,
    fields: ['data', 'stringData', 'type', 'immutable'],
  },
  { gv: 'v1', kind: 'Service', plural: 'services', ns: true, short: ['svc'], sub: ['status'] },
  {
    gv: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    ns: true,
    short: ['sa'],
    fields: ['secrets', 'imagePullSecrets', 'automountServiceAccountToken'],
  },
  { gv: 'v1', kind: 'Pod', plural: 'pods', ns: true, short: ['po'], sub: ['status', 'log'] },
  {
    gv: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    ns: true,
    short: ['pvc'],
    sub: ['status'],
  },
  {
    gv: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    ns: false,
    short: ['pv'],
    sub: ['status'],
  },
  { gv: 'v1', kind: 'Endpoints', plural: 'endpoints', ns: true, short: ['ep'], fields: ['subsets'] },
  {
    gv: 'v1',
    kind: 'Event',
    plural: 'events',
    ns: true,
    short: ['ev'],
    fields: [
      'involvedObject',
      'reason',
      'message',
      'source',
      'firstTimestamp',
      'lastTimestamp',
      'count',
      'type',
      'eventTime',
      'series',
      'action',
      'related',
      'reportingComponent',
      'reportingInstance',
    ],
  },
  { gv: 'v1', kind: 'Node', plural: 'nodes', ns: false, short: ['no'], sub: ['status'] },
  {
    gv: 'apps/v1',
    kind: 'Deployment',
    plural: 'deployments',
    ns: true,
    short: ['deploy'],
    sub: ['status', 'scale'],
    gen: true,
  },
  {
    gv: 'apps/v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    ns: true,
    short: ['rs'],
    sub: ['status', 'scale'],
    gen: true,
  },
  {
    gv: 'apps/v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    ns: true,
    short: ['sts'],
    sub: ['status', 'scale'],
    gen: true,
  },
  {
    gv: 'apps/v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    ns: true,
    short: ['ds'],
    sub: ['status'],
    gen: true,
  },
  {
    gv: 'apps/v1',
    kind: 'ControllerRevision',
    plural: 'controllerrevisions',
    ns: true,
    gen: false,
    fields: ['data', 'revision'],
  },
  { gv: 'batch/v1', kind: 'Job', plural: 'jobs', ns: true, sub: ['status'], gen: true },
  {
    gv: 'batch/v1',
    kind: 'CronJob',
    plural: 'cronjobs',
    ns: true,
    short: ['cj'],
    sub: ['status'],
    gen: true,
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'Ingress',
    plural: 'ingresses',
    ns: true,
    short: ['ing'],
    sub: ['status'],
    gen: true,
  },
  { gv: 'networking.k8s.io/v1', kind: 'IngressClass', plural: 'ingressclasses', ns: false, gen: true },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    ns: true,
    short: ['netpol'],
    gen: true,
  },
  {
    gv: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    ns: true,
    short: ['hpa'],
    sub: ['status'],
  },
  {
    gv: 'policy/v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    ns: true,
    short: ['pdb'],
    sub: ['status'],
    gen: true,
  },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles', ns: true, fields: ['rules'] },
  {
    gv: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    plural: 'rolebindings',
    ns: true,
    fields: ['subjects', 'roleRef'],
  },
  {
    gv: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    ns: false,
    fields: ['rules', 'aggregationRule'],
  },
  {
    gv: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    ns: false,
    fields: ['subjects', 'roleRef'],
  },
  {
    gv: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    ns: false,
    short: ['crd', 'crds'],
    sub: ['status'],
    gen: true,
  },
  {
    gv: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    plural: 'storageclasses',
    ns: false,
    short: ['sc'],
    fields: [
      'provisioner',
      'parameters',
      'reclaimPolicy',
      'mountOptions',
      'allowVolumeExpansion',
      'volumeBindingMode',
      'allowedTopologies',
    ],
  },
  { gv: 'apiregistration.k8s.io/v1', kind: 'APIService', plural: 'apiservices', ns: false, sub: ['status'] },
];

function toType(row: Row): ResourceType {
  const slash = row.gv.indexOf('/');
  return {
    group: slash < 0 ? '' : row.gv.slice(0, slash),
    version: slash < 0 ? row.gv : row.gv.slice(slash + 1),
    kind: row.kind,
    plural: row.plural,
    singular: row.kind.toLowerCase(),
    namespaced: row.ns,
    shortNames: row.short ?? [],
    verbs: row.verbs ?? ALL_VERBS,
    subresources: row.sub ?? [],
    hasGeneration: row.gen ?? false,
    topLevelFields: row.fields ?? SPEC_STATUS,
  };
}

export const BUILTIN_TYPES: readonly ResourceType[] = ROWS.map(toType);
