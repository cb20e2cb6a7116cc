/**
 * getResourceHealth — the health of one live object, as Argo CD gitops-engine `pkg/health/health.go`
 * GetResourceHealth evaluates it (spec §6.2): an object being deleted that does not hold the hook finalizer is
 * Progressing "Pending deletion"; then the built-in check chosen by **group and kind** (never kind alone);
 * no check for the kind → undefined ("no health", which the engine treats as success). Health scripts (Argo CD's
 * Lua checks, `scripted`) come before the engine's own check, as Argo CD asks its resource overrides before its Go
 * checks; the script port itself leaves Argo CD's built-in scripts out for kinds that have a check here.
 */
import { type HealthStatus, HOOK_FINALIZER, type KubeObject, splitApiVersion } from '../../domain/index.js';
import type { HealthOverride, ScriptedHealth } from '../engine-options.js';
import { getAPIServiceHealth } from './api-service-health.js';
import { getApplicationHealth } from './application-health.js';
import { getCustomResourceDefinitionHealth } from './custom-resource-definition-health.js';
import { getDaemonSetHealth } from './daemon-set-health.js';
import { getDeploymentHealth } from './deployment-health.js';
import { getHorizontalPodAutoscalerHealth } from './horizontal-pod-autoscaler-health.js';
import { getJobHealth } from './job-health.js';
import { getPersistentVolumeClaimHealth } from './persistent-volume-claim-health.js';
import { getPodHealth } from './pod-health.js';
import { getReplicaSetHealth } from './replica-set-health.js';
import { getIngressHealth, getServiceHealth } from './service-health.js';
import { getStatefulSetHealth } from './stateful-set-health.js';

type HealthCheck = (obj: KubeObject) => HealthStatus;

/** Built-in checks keyed by `<group>/<kind>` ('' group for core). */
const BUILT_IN_CHECKS: ReadonlyMap<string, HealthCheck> = new Map([
  ['apps/Deployment', getDeploymentHealth],
  ['apps/StatefulSet', getStatefulSetHealth],
  ['apps/DaemonSet', getDaemonSetHealth],
  ['apps/ReplicaSet', getReplicaSetHealth],
  ['/Pod', getPodHealth],
  ['batch/Job', getJobHealth],
  ['/PersistentVolumeClaim', getPersistentVolumeClaimHealth],
  ['/Service', getServiceHealth],
  ['networking.k8s.io/Ingress', getIngressHealth],
  ['extensions/Ingress', getIngressHealth],
  ['apiregistration.k8s.io/APIService', getAPIServiceHealth],
  ['apiextensions.k8s.io/CustomResourceDefinition', getCustomResourceDefinitionHealth],
  ['autoscaling/HorizontalPodAutoscaler', getHorizontalPodAutoscalerHealth],
]);

export interface HealthOptions {
  /** Use the documented `argoproj.io_Application` health customization (spec §6.4); default false, as Argo CD. */
  applicationHealth?: boolean;
  /**
   * Health customizations keyed by `<group>/<Kind>` ('' group for core, e.g. `/ConfigMap`), consulted before the
   * built-in checks (spec §6.2 step 2); returning undefined means "no health" for that object.
   */
  overrides?: Readonly<Record<string, HealthOverride>>;
  /** Lua health scripts (EngineOptions.scriptedHealth), after `overrides` and before the built-in checks. */
  scripted?: ScriptedHealth;
}

function ownCheckFor(obj: KubeObject, options: HealthOptions): HealthOverride | undefined {
  const { group } = splitApiVersion(obj.apiVersion);
  if (options.applicationHealth && group === 'argoproj.io' && obj.kind === 'Application') {
    return getApplicationHealth;
  }
  return BUILT_IN_CHECKS.get(`${group}/${obj.kind}`);
}

/** Health of `obj`; undefined when its group/kind has no health check. Asynchronous for the script port. */
export async function getResourceHealth(
  obj: KubeObject,
  options: HealthOptions = {},
): Promise<HealthStatus | undefined> {
  const meta = obj.metadata ?? {};
  if (meta.deletionTimestamp && !(meta.finalizers ?? []).includes(HOOK_FINALIZER)) {
    return { status: 'Progressing', message: 'Pending deletion' };
  }
  const { group } = splitApiVersion(obj.apiVersion);
  const override = options.overrides?.[`${group}/${obj.kind}`];
  if (override) return override(obj);
  const own = ownCheckFor(obj, options);
  const scripted = await options.scripted?.(obj, { hasOwnCheck: own !== undefined });
  return scripted ?? own?.(obj);
}
