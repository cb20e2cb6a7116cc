/** DaemonSet (apps/v1) health. Rule from Argo CD gitops-engine `pkg/health/health_daemonset.go`. */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { generationOf, numberAt, stringAt } from './object-fields.js';

export function getDaemonSetHealth(obj: KubeObject): HealthStatus {
  if (generationOf(obj) > numberAt(obj, 'status.observedGeneration')) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: observed daemon set generation less than desired generation',
    };
  }
  const name = obj.metadata.name ?? '';
  const updated = numberAt(obj, 'status.updatedNumberScheduled');
  const desired = numberAt(obj, 'status.desiredNumberScheduled');
  const available = numberAt(obj, 'status.numberAvailable');
  if (stringAt(obj, 'spec.updateStrategy.type') === 'OnDelete') {
    return {
      status: 'Healthy',
      message: `daemon set ${updated} out of ${desired} new pods have been updated`,
    };
  }
  if (updated < desired) {
    return {
      status: 'Progressing',
      message: `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    };
  }
  if (available < desired) {
    return {
      status: 'Progressing',
      message: `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
    };
  }
  return { status: 'Healthy', message: '' };
}
