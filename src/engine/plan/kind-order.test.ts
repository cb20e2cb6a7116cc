import { describe, expect, it } from 'vitest';
import { KIND_ORDER, kindOrderOf } from './kind-order.js';

describe('src/engine/kind-order', () => {
  it('gives every listed kind index − 35, as gitops-engine does (Namespace is −35)', () => {
    expect(KIND_ORDER).toHaveLength(35);
    expect(kindOrderOf('Namespace')).toBe(-35);
    expect(kindOrderOf('CustomResourceDefinition')).toBe(-22);
    expect(kindOrderOf('Service')).toBe(-13);
    expect(kindOrderOf('Pod')).toBe(-11);
    expect(kindOrderOf('Deployment')).toBe(-8);
    expect(kindOrderOf('Job')).toBe(-5);
    expect(kindOrderOf('IngressClass')).toBe(-3);
    expect(kindOrderOf('APIService')).toBe(-1);
  });

  it('puts unknown kinds (custom resources, Endpoints, Application) at 0, after all listed kinds', () => {
    expect(kindOrderOf('Widget')).toBe(0);
    expect(kindOrderOf('Endpoints')).toBe(0);
    expect(kindOrderOf('Application')).toBe(0);
    expect(kindOrderOf('namespace')).toBe(0);
  });

  it('lists the kinds in the order of the spec table (§3.2)', () => {
    const table =
      'Namespace NetworkPolicy ResourceQuota LimitRange PodSecurityPolicy PodDisruptionBudget ServiceAccount ' +
      'Secret SecretList ConfigMap StorageClass PersistentVolume PersistentVolumeClaim CustomResourceDefinition ' +
      'ClusterRole ClusterRoleList ClusterRoleBinding ClusterRoleBindingList Role RoleList RoleBinding ' +
      'RoleBindingList Service DaemonSet Pod ReplicationController ReplicaSet Deployment HorizontalPodAutoscaler ' +
      'StatefulSet Job CronJob IngressClass Ingress APIService';

    expect(KIND_ORDER.join(' ')).toBe(table);
  });
});
