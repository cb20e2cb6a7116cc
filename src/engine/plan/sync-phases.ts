/**
 * SyncPhases of an object. Source: gitops-engine `pkg/sync/sync_phase.go`; spec §1.2 step 5.
 * Skip → none; a hook → each of its types that is a phase (PreSync, Sync, PostSync, SyncFail), one task per
 * phase; anything else → [Sync].
 */
import { isSyncPhase, type KubeObject, SYNC_PHASES, type SyncPhase } from '../../domain/index.js';
import { type HookTraits, hookTraitsOf } from '../hooks/hook.js';

/** The phases `obj` runs in, in execution order. */
export function syncPhasesOf(obj: KubeObject): SyncPhase[] {
  return syncPhasesOfTraits(hookTraitsOf(obj));
}

/** The phases for already computed hook traits (avoids reading the annotations twice). */
export function syncPhasesOfTraits(traits: HookTraits): SyncPhase[] {
  if (traits.skip) return [];
  if (!traits.hook) return ['Sync'];
  const types: string[] = traits.types.filter(isSyncPhase);
  return SYNC_PHASES.filter((phase) => types.includes(phase));
}
