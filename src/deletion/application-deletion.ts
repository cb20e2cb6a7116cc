/**
 * Cascading delete of an Application, one step at a time, as Argo CD's controller does it
 * (controller/appcontroller.go finalizeApplicationDeletion, controller/sort_delete.go; spec §9.2):
 * without a resources finalizer only the Application goes (its resources are orphaned); with one, while any tracked
 * object is terminating the step waits; otherwise the candidates of the highest sync wave are deleted together
 * (reverse wave order, one wave per step) with Foreground propagation, or Background with the `/background`
 * finalizer. CRDs, the Application itself, `Delete=false` objects and `helm.sh/resource-policy: keep` objects are
 * never deleted; `Delete=confirm` objects wait for a confirmation. When nothing is left, the Application goes.
 * PreDelete/PostDelete hooks are not handled here.
 */

import { createHash } from 'node:crypto';
import type { Application, DeletionCascade } from '../domain/index.js';
import {
  Annotations,
  formatResourceKey,
  type KubeObject,
  type ResourceKey,
  resourceKeyOf,
} from '../domain/index.js';
import { annotationCsvOf, syncOptionValueOf, syncWaveOf } from '../engine/index.js';

/** The finalizers that make deleting an Application cascade to its resources (Argo CD `ResourcesFinalizerName` and its policy variants). */
export const CASCADE_FINALIZERS = [
  'resources-finalizer.argocd.argoproj.io',
  'resources-finalizer.argocd.argoproj.io/foreground',
  'resources-finalizer.argocd.argoproj.io/background',
];

type PropagationPolicy = 'Foreground' | 'Background';

/**
 * The Application fields a deletion reads. `destination` (optional): with `CreateNamespace=true` the destination
 * Namespace wavesync created is kept, as Argo CD never deletes the namespace it auto-created (it does not track it).
 */
export type DeletedApplication = Pick<Application, 'name' | 'namespace' | 'finalizers' | 'syncPolicy'> &
  Partial<Pick<Application, 'destination'>>;

/** An object left in the cluster, and why. */
export interface KeptResource {
  key: ResourceKey;
  reason:
    | 'orphaned'
    | 'CustomResourceDefinition'
    | 'Delete=false'
    | 'helm.sh/resource-policy: keep'
    | 'CreateNamespace=true'
    | 'the Application itself';
}

export type DeletionStep =
  | { action: 'wait'; reason: string; terminating: ResourceKey[] }
  | { action: 'await-confirmation'; objects: ResourceKey[] }
  | { action: 'delete'; wave: number; objects: KubeObject[]; propagationPolicy: PropagationPolicy }
  | { action: 'remove-application'; kept: KeptResource[] };

/** True when deleting `app` cascades to its resources (it carries a resources finalizer). */
function cascadesOnDelete(app: Pick<Application, 'finalizers'>): boolean {
  return app.finalizers.some((f) => CASCADE_FINALIZERS.includes(f));
}

/**
 * The next step of deleting `app`, given its tracked live objects (as listed now).
 * `deletionConfirmed`: the `Delete=confirm` objects may go (an approval of the deletion was given).
 */
export function nextDeletionStep(
  app: DeletedApplication,
  live: readonly KubeObject[],
  options: { deletionConfirmed?: boolean } = {},
): DeletionStep {
  if (!cascadesOnDelete(app)) {
    return {
      action: 'remove-application',
      kept: live.map((o) => ({ key: resourceKeyOf(o), reason: 'orphaned' })),
    };
  }
  const terminating = live.filter((o) => o.metadata.deletionTimestamp !== undefined);
  if (terminating.length > 0) {
    return {
      action: 'wait',
      reason: `waiting for ${terminating.length} resources to be deleted`,
      terminating: terminating.map(resourceKeyOf),
    };
  }
  const kept: KeptResource[] = [];
  const candidates: KubeObject[] = [];
  for (const obj of live) {
    const reason = keepReason(app, obj);
    if (reason) kept.push({ key: resourceKeyOf(obj), reason });
    else candidates.push(obj);
  }
  if (candidates.length === 0) return { action: 'remove-application', kept };
  const unconfirmed = candidates.filter(
    (o) => syncOptionValueOf(o, 'Delete', app.syncPolicy?.syncOptions) === 'confirm',
  );
  if (unconfirmed.length > 0 && !options.deletionConfirmed) {
    return { action: 'await-confirmation', objects: unconfirmed.map(resourceKeyOf) };
  }
  const wave = Math.max(...candidates.map((o) => syncWaveOf(o)));
  return {
    action: 'delete',
    wave,
    objects: candidates.filter((o) => syncWaveOf(o) === wave),
    propagationPolicy: app.finalizers.includes('resources-finalizer.argocd.argoproj.io/background')
      ? 'Background'
      : 'Foreground',
  };
}

function keepReason(app: DeletedApplication, obj: KubeObject): KeptResource['reason'] | undefined {
  const key = resourceKeyOf(obj);
  if (
    key.group === '' &&
    key.kind === 'Namespace' &&
    key.name === app.destination?.namespace &&
    app.syncPolicy?.syncOptions?.includes('CreateNamespace=true')
  ) {
    return 'CreateNamespace=true';
  }
  if (key.group === 'apiextensions.k8s.io' && key.kind === 'CustomResourceDefinition')
    return 'CustomResourceDefinition';
  if (
    key.group === 'argoproj.io' &&
    key.kind === 'Application' &&
    key.name === app.name &&
    key.namespace === app.namespace
  ) {
    return 'the Application itself';
  }
  if (annotationCsvOf(obj, Annotations.helmResourcePolicy).includes('keep'))
    return 'helm.sh/resource-policy: keep';
  if (syncOptionValueOf(obj, 'Delete', app.syncPolicy?.syncOptions) === 'false') return 'Delete=false';
  return undefined;
}

/**
 * The finalizers the Application is deleted with: its own, or — when `cascade` is given — the ones Argo CD's API
 * server sets before deleting (server/application/application.go Delete: `SetCascadedDeletion(policyFinalizer)`
 * for cascade, `UnSetCascadedDeletion()` for `--cascade=false`).
 */
export function finalizersForCascade(
  app: Pick<Application, 'finalizers'>,
  cascade: DeletionCascade | undefined,
): string[] {
  if (cascade === undefined) return app.finalizers;
  const others = app.finalizers.filter((f) => !CASCADE_FINALIZERS.includes(f));
  if (cascade === 'orphan') return others;
  const finalizer =
    cascade === 'background'
      ? 'resources-finalizer.argocd.argoproj.io/background'
      : 'resources-finalizer.argocd.argoproj.io';
  return [...others, finalizer];
}

/** The effective cascade of deleting an Application with these finalizers. */
export function cascadeOf(finalizers: readonly string[]): DeletionCascade {
  if (!finalizers.some((f) => CASCADE_FINALIZERS.includes(f))) return 'orphan';
  return finalizers.includes('resources-finalizer.argocd.argoproj.io/background')
    ? 'background'
    : 'foreground';
}

/** What deleting an Application would do, for the confirmation and the approval message. */
export interface DeletionPlan {
  application: string;
  cascade: DeletionCascade;
  propagationPolicy: PropagationPolicy | undefined;
  /** Waves in deletion order (highest sync wave first), each with the objects it deletes. */
  waves: { wave: number; resources: ResourceKey[] }[];
  /** Objects left in the cluster, and why. */
  kept: KeptResource[];
  /** `Delete=confirm` objects: deleting them needs this confirmation (or the approval) to cover them. */
  confirm: ResourceKey[];
  /** PreDelete / PostDelete hooks that run (only when the deletion cascades). */
  hooks: { preDelete: ResourceKey[]; postDelete: ResourceKey[] };
}

/**
 * Plan the deletion of `app` over its tracked `live` objects by running `nextDeletionStep` to the end on a copy
 * (each delete step removes its wave; `Delete=confirm` objects are listed in `confirm` and planned as confirmed).
 */
export function planDeletion(
  app: DeletedApplication,
  live: readonly KubeObject[],
  cascade?: DeletionCascade,
  hooks: { preDelete: readonly KubeObject[]; postDelete: readonly KubeObject[] } = NO_HOOKS,
): DeletionPlan {
  const finalizers = finalizersForCascade(app, cascade);
  const effective = { ...app, finalizers };
  const cascades = cascadeOf(finalizers) !== 'orphan';
  const plan: DeletionPlan = {
    application: app.name,
    cascade: cascadeOf(finalizers),
    propagationPolicy: undefined,
    waves: [],
    kept: [],
    confirm: [],
    hooks: {
      preDelete: cascades ? hooks.preDelete.map(resourceKeyOf) : [],
      postDelete: cascades ? hooks.postDelete.map(resourceKeyOf) : [],
    },
  };
  // Terminating objects are already going: plan as if they were gone.
  let remaining = live.filter((o) => o.metadata.deletionTimestamp === undefined);
  for (;;) {
    const step = nextDeletionStep(effective, remaining, { deletionConfirmed: plan.confirm.length > 0 });
    if (step.action === 'await-confirmation') {
      plan.confirm = step.objects;
      continue;
    }
    if (step.action !== 'delete') {
      if (step.action === 'remove-application') plan.kept = step.kept;
      return plan;
    }
    plan.propagationPolicy = step.propagationPolicy;
    plan.waves.push({ wave: step.wave, resources: step.objects.map(resourceKeyOf) });
    const gone = new Set(step.objects);
    remaining = remaining.filter((o) => !gone.has(o));
  }
}

const NO_HOOKS = { preDelete: [], postDelete: [] };

/** `group/Kind/namespace/name` of each key, sorted: the identity of a confirmation, for comparing plans. */
export function confirmationKeys(keys: readonly ResourceKey[]): string[] {
  return keys.map(formatResourceKey).sort();
}

/**
 * A short SHA-256 (32 hex characters) of what the plan deletes and keeps: equal plans hash equal. The confirmation
 * carries it (the Delete button, then the queued DeletionRequest), so the click and the worker can tell that the
 * plan they make now is the one the requester (and approvers) saw.
 */
export function planHash(plan: DeletionPlan): string {
  const canonical = JSON.stringify([
    plan.application,
    plan.cascade,
    plan.waves.map((w) => [w.wave, confirmationKeys(w.resources)]),
    confirmationKeys(plan.kept.map((k) => k.key)),
    confirmationKeys(plan.confirm),
    confirmationKeys(plan.hooks.preDelete),
    confirmationKeys(plan.hooks.postDelete),
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}
