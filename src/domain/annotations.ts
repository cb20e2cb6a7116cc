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
  /** Argo CD's `installationID` (argocd-cm), written next to the tracking id when one is configured. */
  installationId: 'argocd.argoproj.io/installation-id',
  helmHook: 'helm.sh/hook',
  helmHookWeight: 'helm.sh/hook-weight',
  helmHookDeletePolicy: 'helm.sh/hook-delete-policy',
  helmResourcePolicy: 'helm.sh/resource-policy',
} as const;

/**
 * Argo CD's default instance label (argocd-cm `application.instanceLabelKey`): the tracking label of the `label`
 * method, informational with `annotation+label`, and what earlier wavesync versions wrote on every object (still read: docs/applications.md).
 */
export const TRACKING_LABEL = 'app.kubernetes.io/instance';

/** argocd-cm `application.resourceTrackingMethod`. */
export type TrackingMethod = 'annotation' | 'label' | 'annotation+label';

export const TRACKING_METHODS: readonly TrackingMethod[] = ['annotation', 'label', 'annotation+label'];

/**
 * How objects are marked as an Application's, as argocd-cm configures it for Argo CD (wavesync.yaml
 * `resourceTracking`): `method` (`application.resourceTrackingMethod`, default `annotation` since Argo CD 3.0),
 * `labelKey` (`application.instanceLabelKey`) and `installationID` (`installationID`).
 */
export interface ResourceTracking {
  method: TrackingMethod;
  labelKey: string;
  installationID?: string | undefined;
}

/** Argo CD 3.x's defaults: the `argocd.argoproj.io/tracking-id` annotation, no installation ID. */
export const DEFAULT_RESOURCE_TRACKING: Readonly<ResourceTracking> = {
  method: 'annotation',
  labelKey: TRACKING_LABEL,
};

/** Finalizer that keeps a hook object alive until its completion was observed (Argo CD v2.14.3+). */
export const HOOK_FINALIZER = 'argocd.argoproj.io/hook-finalizer';

/**
 * Annotation wavesync puts on every hook it creates: the operation's `startedAt`. A resumed process that finds a
 * live hook carrying its own operation's value knows it already created it, and never creates it twice.
 */
export const OPERATION_ANNOTATION = 'wavesync.io/operation';
