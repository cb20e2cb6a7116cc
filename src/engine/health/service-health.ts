/**
 * Service (core/v1) and Ingress health. Rules from Argo CD gitops-engine `pkg/health/health_service.go` and
 * `health_ingress.go`: a LoadBalancer Service or an Ingress is Healthy once `status.loadBalancer.ingress` has an
 * entry (an empty `{}` entry counts); every other Service type is Healthy at once.
 */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { arrayAt, stringAt } from './object-fields.js';

function loadBalancerHealth(obj: KubeObject): HealthStatus {
  const assigned = arrayAt(obj, 'status.loadBalancer.ingress').length > 0;
  return { status: assigned ? 'Healthy' : 'Progressing', message: '' };
}

export function getServiceHealth(obj: KubeObject): HealthStatus {
  if (stringAt(obj, 'spec.type') === 'LoadBalancer') return loadBalancerHealth(obj);
  return { status: 'Healthy', message: '' };
}

export function getIngressHealth(obj: KubeObject): HealthStatus {
  return loadBalancerHealth(obj);
}
