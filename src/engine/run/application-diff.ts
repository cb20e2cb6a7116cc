/**
 * computeApplicationDiff — what a sync of an Application would change, per task: the planner's tasks
 * (`buildSyncTasks`, Argo CD order) over the tracked live objects, each apply task sent to the API server as a
 * **server-side dry run** with wavesync's field manager (`dryRun=All`, `force=true`, the exact object the sync
 * would send, so server defaults and other managers' fields appear on both sides and are no noise), then compared
 * with the live object by `diffResource`. Hooks are listed (they run, they are not diffed); prune tasks are
 * removals. Source of the comparison rules: Argo CD `argocd app diff --server-side-generate` and gitops-engine
 * `pkg/diff` (server-side diff).
 *
 * I/O only through the Cluster port: one discovery per kind, one GET per target without a tracked live object
 * (an untracked object with the same name is what the apply would change), one dry-run apply per apply task,
 * at most `concurrency` requests at a time. Errors of the dry run do not fail the diff: the manifest is compared
 * as written and the resource carries a note. Listing the live objects (when not given) may throw ClusterError.
 */
import { createHash } from 'node:crypto';
import {
  BotError,
  DEFAULT_RESOURCE_TRACKING,
  type KubeObject,
  type ResourceTracking,
  type SyncOperation,
  type SyncPhase,
} from '../../domain/index.js';
import type { ApiResourceInfo, Cluster, ObjectRef } from '../cluster.js';
import { type IgnoreDifferencesRule, withIgnoredFromLive } from '../diff/ignore-differences.js';
import { diffResource, type ResourceDiff } from '../diff/resource-diff.js';
import { buildSyncTasksSliced } from '../plan/sync-tasks.js';
import { messageOf } from '../retry.js';
import { desiredObject, respectsIgnoreDifferences } from '../steps/apply-task.js';
import { mapBounded } from '../steps/bounded-pool.js';
import { apiVersionOf } from '../sync-context.js';
import { hasSyncOption } from '../sync-options.js';
import { isPruneTask, type SourcedObject, type SyncTask } from '../sync-task.js';
import { ITEMS_PER_YIELD, type SlicedWork, TimeSlice, yieldToEventLoop } from '../time-slice.js';
import {
  listTrackedLiveObjects,
  sharedResourceMessage,
  withTrackingMoveIgnored,
} from '../tracked-objects.js';
import { kindsDefinedInSync, notServedMessage } from './plan-pass.js';

/** A hook the sync would run, in execution order. */
interface DiffHook {
  phase: SyncPhase;
  kind: string;
  namespace: string;
  name: string;
}

export interface DiffCounts {
  create: number;
  change: number;
  unchanged: number;
  prune: number;
  /** Live objects no longer in the manifests that stay because the sync does not prune. */
  pruneSkipped: number;
  /** Hook tasks that would run. */
  hooks: number;
}

export interface ApplicationDiff {
  application: string;
  /** The revision the desired objects were rendered at, in full (git SHA, or a local folder's content hash). */
  revision: string;
  /** For a git source: the branch, tag or SHA `revision` was resolved from (shown as `3f9c2e1 (main)`). */
  ref?: string;
  /** One entry per apply or prune task, in sync order (unchanged ones included). */
  resources: ResourceDiff[];
  hooks: DiffHook[];
  counts: DiffCounts;
  /**
   * Shared resources (`Deployment/web is part of applications mine and theirs`: another Application tracks it),
   * planner warnings and unsupported ignoreDifferences options (one line each).
   */
  warnings: string[];
  /**
   * SHA-256 (hex) of every resource's action and masked diff: equal fingerprints mean the same change; a later
   * diff with another fingerprint means the manifests or the live state changed materially since.
   */
  fingerprint: string;
}

export interface ApplicationDiffInput {
  cluster: Pick<Cluster, 'discover' | 'get' | 'apply' | 'create' | 'replace' | 'listKinds' | 'list'>;
  /** Application name (what the tracking id names). */
  application: string;
  /** How the Application's objects are marked (wavesync.yaml `resourceTracking`); default annotation tracking. */
  tracking?: ResourceTracking;
  targets: readonly SourcedObject[];
  /** Destination namespace for targets without one. */
  namespace: string;
  revision: string;
  operation: SyncOperation;
  /** Compiled `spec.ignoreDifferences` (see parseIgnoreDifferences); default none. */
  ignoreDifferences?: readonly IgnoreDifferencesRule[];
  /** Warnings from compiling ignoreDifferences, passed through to the result. */
  warnings?: readonly string[];
  /** The Application's tracked live objects; listed from the cluster when omitted. */
  live?: readonly KubeObject[];
  /** Requests in flight at most (default 16). */
  concurrency?: number;
  /** ISO time used to name generateName hooks (default now). */
  startedAt?: string;
}

/** Computes the diff (see the file comment). @throws ClusterError when listing the live objects fails. */
export async function computeApplicationDiff(input: ApplicationDiffInput): Promise<ApplicationDiff> {
  const tracking = input.tracking ?? DEFAULT_RESOURCE_TRACKING;
  const live = input.live ?? (await listTrackedLiveObjects(input.cluster, input.application, tracking));
  // A macrotask boundary after the list; the planner then runs in time slices.
  await yieldToEventLoop();
  // CreateNamespace=true: the destination Namespace is untracked, so whether it exists is asked (as the sync does).
  const namespaceExists = input.operation.syncOptions.includes('CreateNamespace=true')
    ? (await input.cluster.get({
        apiVersion: 'v1',
        kind: 'Namespace',
        namespace: '',
        name: input.namespace,
      })) !== undefined
    : undefined;
  const { tasks, warnings } = await buildSyncTasksSliced({
    ...(namespaceExists === undefined ? {} : { namespaceExists }),
    targets: input.targets,
    live,
    namespace: input.namespace,
    revision: input.revision,
    startedAt: input.startedAt ?? new Date().toISOString(),
    operation: input.operation,
  });
  const rules = input.ignoreDifferences ?? [];
  const discovery = new Map<string, Promise<ApiResourceInfo | undefined>>();
  const discover = (apiVersion: string, kind: string) => {
    const key = `${apiVersion}/${kind}`;
    let found = discovery.get(key);
    if (found === undefined) {
      found = input.cluster.discover(apiVersion, kind).catch(() => undefined);
      discovery.set(key, found);
    }
    return found;
  };
  const resourceTasks = tasks.filter((t) => !t.isHook);
  await rejectUnservedKinds(input, tasks, discover);
  const shared = new Set<string>();
  const resources = await mapBounded(resourceTasks, input.concurrency ?? 16, (task) =>
    diffTask({ ...input, tracking }, task, rules, discover, (message) => shared.add(message)),
  );
  const hooks = tasks
    .filter((t) => t.isHook)
    .map((t) => ({ phase: t.phase, kind: t.kind, namespace: t.namespace, name: t.name }));
  // Counting and hashing read every resource (50,000: tens of ms each): in time slices.
  const slice = new TimeSlice();
  const counts = await slice.run(countsOf(resources, hooks.length));
  return {
    application: input.application,
    revision: input.revision,
    resources,
    hooks,
    counts,
    warnings: [...shared, ...(input.warnings ?? []), ...warnings.map((w) => w.message)],
    fingerprint: await fingerprintOf(resources, slice),
  };
}

/**
 * The sync's validation (plan-pass.ts, gitops-engine getSyncTasks): a task whose kind the cluster does not serve is
 * valid only when a CRD of this sync defines it or it has SkipDryRunOnMissingResource=true. A diff of what the sync
 * would refuse is not shown as a create. @throws BotError invalid_manifest naming every unserved kind.
 */
async function rejectUnservedKinds(
  input: ApplicationDiffInput,
  tasks: readonly SyncTask[],
  discover: (apiVersion: string, kind: string) => Promise<ApiResourceInfo | undefined>,
): Promise<void> {
  const served = await Promise.all(
    tasks.map((t) => (isPruneTask(t) ? true : discover(apiVersionOf(t), t.kind))),
  );
  const unserved = tasks.filter((_, i) => served[i] === undefined);
  if (unserved.length === 0) return;
  const defined = kindsDefinedInSync([...tasks]);
  const invalid = unserved.filter(
    (t) =>
      !defined.has(`${t.group}/${t.kind}`) &&
      !hasSyncOption(input.operation, 'SkipDryRunOnMissingResource=true', t.targetObj),
  );
  if (invalid.length === 0) return;
  const messages = [...new Set(invalid.map(notServedMessage))];
  throw new BotError(
    'invalid_manifest',
    `one or more synchronization tasks are not valid: ${messages.join('; ')}`,
    {
      fix: 'install the CRD first, add it to the Application, or mark the object SkipDryRunOnMissingResource=true',
    },
  );
}

async function diffTask(
  input: ApplicationDiffInput & { tracking: ResourceTracking },
  task: SyncTask,
  rules: readonly IgnoreDifferencesRule[],
  discover: (apiVersion: string, kind: string) => Promise<ApiResourceInfo | undefined>,
  onShared: (message: string) => void,
): Promise<ResourceDiff> {
  const base = { group: task.group, kind: task.kind, namespace: task.namespace, name: task.name, rules };
  if (isPruneTask(task)) {
    return diffResource({ ...base, live: task.liveObj, desired: undefined, prune: input.operation.prune });
  }
  const apiVersion = apiVersionOf(task);
  const info = await discover(apiVersion, task.kind);
  const ref: ObjectRef = {
    apiVersion,
    kind: task.kind,
    namespace: info && !info.namespaced ? '' : task.namespace,
    name: task.name,
  };
  let live = task.liveObj;
  let note: string | undefined;
  try {
    live ??= info === undefined ? undefined : await input.cluster.get(ref);
  } catch (error) {
    note = `could not read the live object: ${messageOf(error)}`;
  }
  const shared =
    live && !task.untracked && sharedResourceMessage(task.targetObj, live, input.application, input.tracking);
  if (shared) onShared(shared);
  let desired = desiredObject(
    task,
    ref,
    { application: input.application, namespace: input.namespace, tracking: input.tracking },
    input.startedAt ?? new Date().toISOString(),
  );
  if (ref.namespace === '') base.namespace = '';
  if (respectsIgnoreDifferences(input.operation)) desired = withIgnoredFromLive(rules, desired, live);
  if (task.skipDryRun) {
    // Its Namespace or CRD is created by this sync (the sync skips its dry run too): it can only be a create, and
    // the manifest as written is what there is to show.
  } else if (info === undefined) {
    note = `${task.kind} is not served by the cluster yet (its CRD is created by this sync, or SkipDryRunOnMissingResource=true): the manifest is shown as written`;
  } else {
    try {
      desired = await dryRun(input, task, desired, live);
    } catch (error) {
      note = `server dry run failed (${messageOf(error)}): the manifest is compared as written`;
    }
  }
  if (live !== undefined) live = withTrackingMoveIgnored(live, desired, input.tracking);
  return diffResource({ ...base, live, desired, ...(note === undefined ? {} : { note }) });
}

/** The dry run the sync's apply would make (apply-task.ts: replace/create for Replace=true or Validate=false). */
function dryRun(
  input: ApplicationDiffInput,
  task: SyncTask,
  obj: KubeObject,
  live: KubeObject | undefined,
): Promise<KubeObject> {
  const validate = !hasSyncOption(input.operation, 'Validate=false', task.targetObj);
  const replace = !validate || hasSyncOption(input.operation, 'Replace=true', task.targetObj, live);
  if (replace && live !== undefined) return input.cluster.replace(obj, { dryRun: true, validate });
  if (replace) return input.cluster.create(obj, { dryRun: true, validate });
  return input.cluster.apply(obj, { dryRun: true, validate, force: true });
}

function* countsOf(resources: readonly ResourceDiff[], hooks: number): SlicedWork<DiffCounts> {
  const counts: DiffCounts = { create: 0, change: 0, unchanged: 0, prune: 0, pruneSkipped: 0, hooks };
  let count = 0;
  for (const r of resources) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    if (r.action === 'prune-skipped') counts.pruneSkipped++;
    else counts[r.action]++;
  }
  return counts;
}

/** Hashed in time slices: 20,000 diffs of a few KiB each are tens of ms of hashing. */
async function fingerprintOf(resources: readonly ResourceDiff[], slice: TimeSlice): Promise<string> {
  const hash = createHash('sha256');
  for (const r of resources) {
    if (slice.due()) await slice.pause();
    // A create's body is the server's dry-run answer, which may hold values allocated anew on each dry run (a
    // Service's clusterIP): only that it is created counts.
    const body = r.action === 'create' ? '' : r.diff;
    hash.update(`${r.group}/${r.kind}/${r.namespace}/${r.name}\n${r.action}\n${body}\n`);
  }
  return hash.digest('hex');
}

/** True when applying the diff would change anything (creates, changes or prunes). */
export function hasChanges(diff: Pick<ApplicationDiff, 'counts'>): boolean {
  const { create, change, prune } = diff.counts;
  return create + change + prune > 0;
}

/** `2 to create, 3 to change, 1 to prune, 2 hooks` (parts that are 0 left out); `no changes` when nothing. */
export function formatDiffCounts(counts: DiffCounts): string {
  const parts = [
    counts.create > 0 ? `${counts.create} to create` : '',
    counts.change > 0 ? `${counts.change} to change` : '',
    counts.prune > 0 ? `${counts.prune} to prune` : '',
    counts.pruneSkipped > 0 ? `${counts.pruneSkipped} not pruned (prune off)` : '',
    counts.hooks > 0 ? `${counts.hooks} hook${counts.hooks === 1 ? '' : 's'}` : '',
  ].filter((p) => p !== '');
  const changes = counts.create + counts.change + counts.prune;
  if (changes === 0) parts.unshift('no changes');
  return parts.join(', ');
}
