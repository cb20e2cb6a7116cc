/**
 * CustomResourceDefinition (apiextensions.k8s.io) health, as Argo CD's bundled Lua check
 * `resource_customizations/apiextensions.k8s.io/CustomResourceDefinition/health.lua` judges it (its test cases
 * are in the shared fixtures and test/unit/engine/crd-health.test.ts runs them against this port): terminating
 * (deletionTimestamp) → Progressing; no conditions → Progressing; then the conditions in their order, the first
 * that decides wins: Terminating=True → Progressing, NamesAccepted=False → Degraded, NonStructuralSchema=True →
 * Degraded, Established=False with reason Installing → Progressing "CRD is being installed"; Established=True
 * anywhere → Healthy; otherwise Degraded "CRD is not established" (kube-apiserver says Installing while it sets a
 * new CRD up, so a CRD still starting is Progressing, as there).
 */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import { conditionsOf } from './object-fields.js';

export function getCustomResourceDefinitionHealth(obj: KubeObject): HealthStatus {
  if (obj.metadata.deletionTimestamp !== undefined)
    return { status: 'Progressing', message: 'CRD is terminating' };
  const conditions = conditionsOf(obj);
  if (conditions.length === 0) return { status: 'Progressing', message: 'Status conditions not found' };
  let established = false;
  for (const c of conditions) {
    if (c.type === 'Terminating' && c.status === 'True')
      return { status: 'Progressing', message: `CRD is terminating: ${c.message}` };
    if (c.type === 'NamesAccepted' && c.status === 'False')
      return { status: 'Degraded', message: `CRD names have not been accepted: ${c.message}` };
    if (c.type === 'NonStructuralSchema' && c.status === 'True')
      return { status: 'Degraded', message: `Schema violations found: ${c.message}` };
    if (c.type === 'Established') {
      if (c.status === 'True') established = true;
      else if (c.reason === 'Installing') return { status: 'Progressing', message: 'CRD is being installed' };
    }
  }
  if (!established) return { status: 'Degraded', message: 'CRD is not established' };
  return { status: 'Healthy', message: 'CRD is healthy' };
}
