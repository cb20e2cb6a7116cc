/** PersistentVolumeClaim (core/v1) health. Rule from Argo CD gitops-engine `pkg/health/health_pvc.go`. */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { stringAt } from './object-fields.js';

export function getPersistentVolumeClaimHealth(obj: KubeObject): HealthStatus {
  switch (stringAt(obj, 'status.phase')) {
    case 'Bound':
      return { status: 'Healthy', message: '' };
    case 'Pending':
      return { status: 'Progressing', message: '' };
    case 'Lost':
      return { status: 'Degraded', message: '' };
    default:
      return { status: 'Unknown', message: '' };
  }
}
