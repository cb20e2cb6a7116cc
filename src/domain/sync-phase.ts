/**
 * SyncPhase, HookType, HookDeletePolicy and SyncWave — Argo CD's sync vocabulary.
 * Source: Argo CD gitops-engine `pkg/sync/common/types.go`.
 */

/** The engine's sync phases, in execution order. SyncFail runs only when the operation fails. */
export const SYNC_PHASES = ['PreSync', 'Sync', 'PostSync', 'SyncFail'] as const;
export type SyncPhase = (typeof SYNC_PHASES)[number];

/** Sort ordinal of each phase (gitops-engine `sync_tasks.go`): PreSync -1, Sync 0, PostSync 1, SyncFail 2. */
export const SYNC_PHASE_ORDINAL: Readonly<Record<SyncPhase, number>> = {
  PreSync: -1,
  Sync: 0,
  PostSync: 1,
  SyncFail: 2,
};

/** Values of `argocd.argoproj.io/hook`. PreDelete/PostDelete are handled outside the engine (app deletion). */
const HOOK_TYPES = ['PreSync', 'Sync', 'PostSync', 'SyncFail', 'Skip', 'PreDelete', 'PostDelete'] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/** Values of `argocd.argoproj.io/hook-delete-policy`; the default is BeforeHookCreation. */
export const HOOK_DELETE_POLICIES = ['HookSucceeded', 'HookFailed', 'BeforeHookCreation'] as const;
export type HookDeletePolicy = (typeof HOOK_DELETE_POLICIES)[number];

/** A sync wave: an integer from `argocd.argoproj.io/sync-wave` (else `helm.sh/hook-weight`, else 0). */
export type SyncWave = number;

/** Type guard: is `value` one of the four engine phases? (case-sensitive, as Argo CD) */
export function isSyncPhase(value: string): value is SyncPhase {
  return (SYNC_PHASES as readonly string[]).includes(value);
}

/** Type guard: is `value` a recognised HookDeletePolicy? (case-sensitive, as Argo CD) */
export function isHookDeletePolicy(value: string): value is HookDeletePolicy {
  return (HOOK_DELETE_POLICIES as readonly string[]).includes(value);
}
