/**
 * CustomResourceDefinition (apiextensions.k8s.io) health, as Argo CD's bundled Lua check
 * `resource_customizations/apiextensions.k8s.io/CustomResourceDefinition/health.lua` judges it (read from memory;
 * spec §13 lists bundled Lua checks as unreviewed): terminating → Progressing; names not accepted → Degraded;
 * non-structural schema → Degraded; Established → Healthy. Divergence: a CRD that is not Established yet is
 * Progressing (not Degraded), because right after creation the API server has not set the condition; this gives
 * Argo's "wait for Established" (spec §4.7 step 6) without its 3 s cap.
 */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { conditionsOf } from './object-fields.js';

export function getCustomResourceDefinitionHealth(obj: KubeObject): HealthStatus {
  if (obj.metadata.deletionTimestamp !== undefined)
    return { status: 'Progressing', message: 'CRD is terminating' };
  const conditions = conditionsOf(obj);
  if (conditions.length === 0) return { status: 'Progressing', message: 'Status conditions not found' };
  const isTrue = (type: string) => conditions.find((c) => c.type === type && c.status === 'True');
  const terminating = isTrue('Terminating');
  if (terminating) return { status: 'Progressing', message: `CRD is terminating: ${terminating.message}` };
  const notAccepted = conditions.find((c) => c.type === 'NamesAccepted' && c.status === 'False');
  if (notAccepted) {
    return { status: 'Degraded', message: `CRD names have not been accepted: ${notAccepted.message}` };
  }
  const violations = isTrue('NonStructuralSchema');
  if (violations) return { status: 'Degraded', message: `Schema violations found: ${violations.message}` };
  if (!isTrue('Established')) return { status: 'Progressing', message: 'CRD is not established' };
  return { status: 'Healthy', message: 'CRD is healthy' };
}
