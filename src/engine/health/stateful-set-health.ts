/** StatefulSet (apps/v1) health. Rule from Argo CD gitops-engine `pkg/health/health_statefulset.go`. */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { fieldAt, generationOf, numberAt, optionalNumberAt, stringAt } from './object-fields.js';

export function getStatefulSetHealth(obj: KubeObject): HealthStatus {
  const observed = numberAt(obj, 'status.observedGeneration');
  if (observed === 0 || generationOf(obj) > observed) {
    return { status: 'Progressing', message: 'Waiting for statefulset spec update to be observed...' };
  }
  const wanted = optionalNumberAt(obj, 'spec.replicas');
  const ready = numberAt(obj, 'status.readyReplicas');
  if (wanted !== undefined && ready < wanted) {
    return { status: 'Progressing', message: `Waiting for ${wanted - ready} pods to be ready...` };
  }
  const strategy = stringAt(obj, 'spec.updateStrategy.type');
  const updated = numberAt(obj, 'status.updatedReplicas');
  if (strategy === 'RollingUpdate' && fieldAt(obj, 'spec.updateStrategy.rollingUpdate') !== undefined) {
    const partition = optionalNumberAt(obj, 'spec.updateStrategy.rollingUpdate.partition');
    if (wanted !== undefined && partition !== undefined && updated < wanted - partition) {
      return {
        status: 'Progressing',
        message: `Waiting for partitioned roll out to finish: ${updated} out of ${wanted - partition} new pods have been updated...`,
      };
    }
    return {
      status: 'Healthy',
      message: `partitioned roll out complete: ${updated} new pods have been updated...`,
    };
  }
  if (strategy === 'OnDelete') return { status: 'Healthy', message: `statefulset has ${ready} ready pods` };
  const updateRevision = stringAt(obj, 'status.updateRevision');
  const currentRevision = stringAt(obj, 'status.currentRevision');
  if (updateRevision !== currentRevision) {
    return {
      status: 'Progressing',
      message: `waiting for statefulset rolling update to complete ${updated} pods at revision ${updateRevision}...`,
    };
  }
  return {
    status: 'Healthy',
    message: `statefulset rolling update complete ${numberAt(obj, 'status.currentReplicas')} pods at revision ${currentRevision}...`,
  };
}
