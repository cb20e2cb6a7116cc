/**
 * Job (batch/v1) health. Rule from Argo CD gitops-engine `pkg/health/health_job.go`: conditions are scanned by
 * type only (Failed, Complete, Suspended); a Job with none of them is still Progressing.
 */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { conditionsOf } from './object-fields.js';

export function getJobHealth(obj: KubeObject): HealthStatus {
  let complete = false;
  let failed = false;
  let suspended = false;
  let failMessage = '';
  let message = '';
  for (const condition of conditionsOf(obj)) {
    if (condition.type === 'Failed') {
      failed = true;
      complete = true;
      failMessage = condition.message;
    } else if (condition.type === 'Complete') {
      complete = true;
      message = condition.message;
    } else if (condition.type === 'Suspended') {
      complete = true;
      message = condition.message;
      suspended = condition.status === 'True';
    }
  }
  if (!complete) return { status: 'Progressing', message };
  if (failed) return { status: 'Degraded', message: failMessage };
  if (suspended) return { status: 'Suspended', message };
  return { status: 'Healthy', message };
}
