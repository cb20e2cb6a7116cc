/** APIService (apiregistration.k8s.io v1/v1beta1) health. Rule from gitops-engine `pkg/health/health_apiservice.go`. */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { conditionsOf } from './object-fields.js';

export function getAPIServiceHealth(obj: KubeObject): HealthStatus {
  const available = conditionsOf(obj).find((c) => c.type === 'Available');
  if (available === undefined) return { status: 'Progressing', message: 'Waiting to be processed' };
  const message = `${available.reason}: ${available.message}`;
  return { status: available.status === 'True' ? 'Healthy' : 'Progressing', message };
}
