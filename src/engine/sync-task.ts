/**
 * SyncTask — one unit of work of a sync: one object in one SyncPhase (gitops-engine `pkg/sync/sync_task.go`).
 * Kinds: an apply task (targetObj set, not a hook), a hook task (isHook), a prune task (targetObj undefined,
 * liveObj set). Tasks are rebuilt on every pass from the desired manifests plus the live objects; progress is
 * restored from OperationState by `resultKeyOf` (spec §3.5).
 */
import type { HookDeletePolicy, HookType, KubeObject, SyncPhase, SyncWave } from '../domain/index.js';

/** Where a desired object came from, for warnings and errors (1-based line of the document start). */
export interface ManifestSource {
  file: string;
  line: number;
}

/** A desired object as loaded from manifests, with its origin. */
export interface SourcedObject {
  object: KubeObject;
  source: ManifestSource;
}

export interface SyncTask {
  phase: SyncPhase;
  wave: SyncWave;
  group: string;
  version: string;
  kind: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  /** Final name (hooks with only generateName get the deterministic name of spec §5.1). */
  name: string;
  /** Desired object; undefined for prune tasks. */
  targetObj: KubeObject | undefined;
  /** Live object, when one exists. */
  liveObj: KubeObject | undefined;
  isHook: boolean;
  /** For hooks: the recognised hook types of the object (not only this task's phase). */
  hookTypes: HookType[];
  /** For hooks: the effective delete policies (default [BeforeHookCreation]). */
  deletePolicies: HookDeletePolicy[];
  /** True when the server-side dry run must be skipped (its CRD or Namespace is created by this sync). */
  skipDryRun: boolean;
  /**
   * Set when the dry run is skipped only because the task's Namespace (this name) does not exist yet and is created
   * by this sync: once that Namespace exists (CreateNamespace=true creates it before validation), the task is
   * dry-run after all; until then only its name is checked, client-side.
   */
  awaitsNamespace?: string;
  source: ManifestSource | undefined;
  /**
   * True only for the Namespace that `CreateNamespace=true` creates: it is applied without the tracking label, as
   * Argo CD does not track it (spec §3.1 step 5, gitops-engine sync_namespace.go; tracked only with
   * managedNamespaceMetadata, which wavesync does not support), so no later sync or deletion can prune it — with
   * everything inside it.
   */
  untracked?: true;
}

/** True for prune tasks: a live object with no desired counterpart. */
export function isPruneTask(task: SyncTask): boolean {
  return task.targetObj === undefined;
}

/** The persisted-result key of a task: `<group>/<kind>/<namespace>/<name>:<phase>` (spec §3.5). */
export function resultKeyOf(task: Pick<SyncTask, 'group' | 'kind' | 'namespace' | 'name' | 'phase'>): string {
  return `${task.group}/${task.kind}/${task.namespace}/${task.name}:${task.phase}`;
}
