/**
 * Annotation and label keys wavesync reads, spelled exactly as Argo CD and Helm spell them.
 * Source: Argo CD gitops-engine `pkg/sync/common/types.go` and `pkg/sync/hook/helm/*.go`.
 */
export const Annotations = {
  /** Comma-separated HookType list, e.g. `PreSync` or `PreSync,PostSync`. */
  hook: 'argocd.argoproj.io/hook',
  /** Comma-separated HookDeletePolicy list; default `BeforeHookCreation`. */
  hookDeletePolicy: 'argocd.argoproj.io/hook-delete-policy',
  /** Integer SyncWave (Go `strconv.Atoi` syntax); default 0. */
  syncWave: 'argocd.argoproj.io/sync-wave',
  /** Comma-separated sync options, e.g. `Prune=false,ServerSideApply=true`. */
  syncOptions: 'argocd.argoproj.io/sync-options',
  /** Compare options, e.g. `IgnoreExtraneous`. */
  compareOptions: 'argocd.argoproj.io/compare-options',
  /** Annotation tracking id written by Argo CD (`<app>:<group>/<kind>:<ns>/<name>`). */
  trackingId: 'argocd.argoproj.io/tracking-id',
  helmHook: 'helm.sh/hook',
  helmHookWeight: 'helm.sh/hook-weight',
  helmHookDeletePolicy: 'helm.sh/hook-delete-policy',
  helmResourcePolicy: 'helm.sh/resource-policy',
} as const;

/** Label wavesync puts on every object it applies: value is the Application name. */
export const TRACKING_LABEL = 'app.kubernetes.io/instance';

/** Finalizer that keeps a hook object alive until its completion was observed (Argo CD v2.14.3+). */
export const HOOK_FINALIZER = 'argocd.argoproj.io/hook-finalizer';

/** Application finalizers (foreground / background cascading delete). */
export const ResourcesFinalizer = {
  foreground: 'resources-finalizer.argocd.argoproj.io',
  background: 'resources-finalizer.argocd.argoproj.io/background',
} as const;

/**
 * Annotation wavesync puts on every hook it creates: the operation's `startedAt`. A resumed process that finds a
 * live hook carrying its own operation's value knows it already created it, and never creates it twice.
 */
export const OPERATION_ANNOTATION = 'wavesync.io/operation';
