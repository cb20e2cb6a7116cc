/**
 * HorizontalPodAutoscaler health (autoscaling/v1 and v2). Rule from Argo CD gitops-engine `pkg/health/health_hpa.go`
 * at v3.5.1: every condition is checked for a degraded (type, reason) pair before any is checked for health.
 * v1 keeps its conditions as JSON in the annotation `autoscaling.alpha.kubernetes.io/conditions`.
 * Other versions (v2beta1/v2beta2, removed upstream) → Unknown "unsupported HPA GVK: ...".
 */
import { type HealthStatus, type KubeObject, splitApiVersion } from '../../domain/index.js';
import { type Condition, conditionsOf, toCondition } from './object-fields.js';

const V1_CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';

const DEGRADED_PAIRS: ReadonlySet<string> = new Set([
  'AbleToScale/FailedGetScale',
  'AbleToScale/FailedUpdateScale',
  'ScalingActive/FailedGetResourceMetric',
  'ScalingActive/InvalidSelector',
  'ScalingActive/FailedGetObjectMetric',
  'ScalingActive/FailedGetPodsMetric',
  'ScalingActive/FailedGetExternalMetric',
  'ScalingActive/FailedComputeMetricsReplicas',
]);

function v1Conditions(obj: KubeObject): Condition[] | HealthStatus {
  const raw = obj.metadata.annotations?.[V1_CONDITIONS_ANNOTATION];
  if (raw === undefined || raw === '') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.map(toCondition) : [];
  } catch (error) {
    return { status: 'Unknown', message: `invalid ${V1_CONDITIONS_ANNOTATION}: ${(error as Error).message}` };
  }
}

function fromConditions(conditions: Condition[]): HealthStatus {
  const degraded = conditions.find((c) => DEGRADED_PAIRS.has(`${c.type}/${c.reason}`));
  if (degraded) return { status: 'Degraded', message: degraded.message };
  const healthy = conditions.find(
    (c) => (c.type === 'AbleToScale' || c.type === 'ScalingLimited') && c.status === 'True',
  );
  if (healthy) return { status: 'Healthy', message: healthy.message };
  return { status: 'Progressing', message: 'Waiting to Autoscale' };
}

export function getHorizontalPodAutoscalerHealth(obj: KubeObject): HealthStatus {
  const { group, version } = splitApiVersion(obj.apiVersion);
  if (version === 'v2') return fromConditions(conditionsOf(obj));
  if (version !== 'v1') {
    return { status: 'Unknown', message: `unsupported HPA GVK: ${group}/${version}, Kind=${obj.kind}` };
  }
  const conditions = v1Conditions(obj);
  return Array.isArray(conditions) ? fromConditions(conditions) : conditions;
}
