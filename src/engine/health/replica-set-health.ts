/** ReplicaSet (apps/v1) health. Rule from Argo CD gitops-engine `pkg/health/health_replicaset.go`. */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { conditionsOf, generationOf, numberAt, optionalNumberAt } from './object-fields.js';

export function getReplicaSetHealth(obj: KubeObject): HealthStatus {
  if (generationOf(obj) > numberAt(obj, 'status.observedGeneration')) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: observed replica set generation less than desired generation',
    };
  }
  const failure = conditionsOf(obj).find((c) => c.type === 'ReplicaFailure');
  if (failure?.status === 'True') return { status: 'Degraded', message: failure.message };
  const wanted = optionalNumberAt(obj, 'spec.replicas');
  const available = numberAt(obj, 'status.availableReplicas');
  if (wanted !== undefined && available < wanted) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${available} out of ${wanted} new replicas are available...`,
    };
  }
  return { status: 'Healthy', message: '' };
}
