/** Deployment (apps/v1) health. Rule from Argo CD gitops-engine `pkg/health/health_deployment.go`. */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { conditionsOf, fieldAt, generationOf, numberAt, optionalNumberAt } from './object-fields.js';

export function getDeploymentHealth(obj: KubeObject): HealthStatus {
  if (fieldAt(obj, 'spec.paused') === true) return { status: 'Suspended', message: 'Deployment is paused' };
  if (generationOf(obj) > numberAt(obj, 'status.observedGeneration')) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: observed deployment generation less than desired generation',
    };
  }
  const progressing = conditionsOf(obj).find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return {
      status: 'Degraded',
      message: `Deployment "${obj.metadata.name ?? ''}" exceeded its progress deadline`,
    };
  }
  const wanted = optionalNumberAt(obj, 'spec.replicas');
  const replicas = numberAt(obj, 'status.replicas');
  const updated = numberAt(obj, 'status.updatedReplicas');
  const available = numberAt(obj, 'status.availableReplicas');
  if (wanted !== undefined && updated < wanted) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${updated} out of ${wanted} new replicas have been updated...`,
    };
  }
  if (replicas > updated) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${replicas - updated} old replicas are pending termination...`,
    };
  }
  if (available < updated) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${available} of ${updated} updated replicas are available...`,
    };
  }
  return { status: 'Healthy', message: '' };
}
