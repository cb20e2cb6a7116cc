/**
 * Pass step A (spec §3.1, §4.2): rebuild the task list from the desired objects and the live state, attach each
 * task's live object, discover every kind, and validate. The plan itself comes from buildSyncTasks (the planner);
 * this step only feeds it live objects and checks what needs the API server.
 */
import { formatResourceKey, type KubeObject, resourceKeyOf } from '../../domain/index.js';
import type { WatchTarget } from '../cluster.js';
import { clearClusterScopedNamespaces } from '../plan/cluster-scoped-kinds.js';
import { crdDefinedKindOf } from '../plan/dependency-bubbling.js';
import { buildSyncTasksSliced } from '../plan/sync-tasks.js';
import { apiVersionOf, objectRefOf, type SyncContext } from '../sync-context.js';
import { hasSyncOption } from '../sync-options.js';
import type { SyncTask } from '../sync-task.js';
import { TimeSlice } from '../time-slice.js';
import {
  type CollectionsAlongside,
  listTrackedOfKind,
  sharedResourceMessage,
  trackedKinds,
} from '../tracked-objects.js';

export interface PassPlan {
  tasks: SyncTask[];
  /** Validation failures: `<kind>/<name>: <problem>`; non-empty fails the operation (§4.2). */
  invalid: { task: SyncTask; message: string }[];
}

function identityOf(obj: KubeObject): string {
  return formatResourceKey(resourceKeyOf(obj));
}

const SKIP_DRY_RUN_ON_MISSING = 'SkipDryRunOnMissingResource=true';

/** `<apiVersion>/<kind>` */
const kindKeyOf = (k: { apiVersion: string; kind: string }) => `${k.apiVersion}/${k.kind}`;

/**
 * The tracked objects (listed once per operation), and the targets' collections read into the live cache: each
 * taken from its kind's list in all namespaces, which the tracking reads anyway (one fetch of each thing), or else
 * read on its own once that list is in.
 */
async function trackedLive(ctx: SyncContext, slice: TimeSlice): Promise<KubeObject[]> {
  if (ctx.memory.trackedObjects !== undefined) return ctx.memory.trackedObjects;
  const collections = await targetCollections(ctx, slice);
  /** kind → the namespaces of its wanted collections ('' for a cluster-scoped kind's one collection). */
  const wanted = new Map<string, Set<string>>();
  for (const target of collections) {
    const namespaces = wanted.get(kindKeyOf(target)) ?? new Set(['']);
    namespaces.add(target.namespace);
    wanted.set(kindKeyOf(target), namespaces);
  }
  const alongside: CollectionsAlongside = {
    wants: (obj) => wanted.get(kindKeyOf(obj))?.has(obj.metadata.namespace ?? '') === true,
    listed: (kind, objects, resourceVersion) => {
      const namespaces = kind.namespaced
        ? [...(wanted.get(kindKeyOf(kind)) ?? [])].filter((n) => n !== '')
        : [''];
      for (const namespace of namespaces)
        ctx.live.seed(
          { apiVersion: kind.apiVersion, kind: kind.kind, namespace },
          objects.filter((o) => (o.metadata.namespace ?? '') === namespace),
          resourceVersion,
        );
    },
  };
  const kinds = trackedKinds(await ctx.cluster.listKinds());
  const lists = new Map(
    kinds.map((k) => [
      kindKeyOf(k),
      listTrackedOfKind(
        ctx.cluster,
        k,
        ctx.application,
        ctx.tracking,
        slice,
        wanted.has(kindKeyOf(k)) ? alongside : undefined,
      ),
    ]),
  );
  const [tracked] = await Promise.all([
    Promise.all(lists.values()).then((found) => found.flat()),
    readTargetCollections(ctx, collections, lists),
  ]);
  // The same objects came in both (a target's collection holds the tracked objects of its kind and namespace):
  // the tracked list keeps the live cache's copies, so 10,000 tracked targets are held once, not twice.
  for (const [i, obj] of tracked.entries()) {
    if (slice.due()) await slice.pause();
    tracked[i] = ctx.live.shared(obj);
  }
  ctx.memory.trackedObjects ??= tracked;
  return ctx.memory.trackedObjects;
}

/**
 * The collection (kind and namespace) of every target, as liveOf reads it a moment later — the destination
 * namespace for one without a namespace, its scope unknown yet — and the Namespaces (the destination's).
 */
async function targetCollections(ctx: SyncContext, slice: TimeSlice): Promise<WatchTarget[]> {
  const collections = new Map<string, WatchTarget>();
  if (ctx.namespace !== '')
    collections.set('v1/Namespace/', { apiVersion: 'v1', kind: 'Namespace', namespace: '' });
  for (const { object } of ctx.targets) {
    if (slice.due()) await slice.pause();
    const namespace = object.metadata.namespace || ctx.namespace;
    const key = `${object.apiVersion}/${object.kind}/${namespace}`;
    if (!collections.has(key))
      collections.set(key, { apiVersion: object.apiVersion, kind: object.kind, namespace });
  }
  return [...collections.values()];
}

/**
 * Reads each collection into the live cache once its kind's tracked list is in: nothing more when that list
 * seeded it (the live cache holds it), else its own list. A target of a kind not served is left to the pass.
 * Failures are the pass's to report: its own reads meet them again.
 */
async function readTargetCollections(
  ctx: SyncContext,
  collections: readonly WatchTarget[],
  lists: ReadonlyMap<string, Promise<unknown>>,
): Promise<void> {
  await Promise.all(
    collections.map(async (target) => {
      try {
        await lists.get(kindKeyOf(target))?.catch(() => undefined);
        const info = await ctx.cluster.discover(target.apiVersion, target.kind);
        if (info !== undefined)
          await ctx.live.readCollection({ ...target, namespace: info.namespaced ? target.namespace : '' });
      } catch {}
    }),
  );
}

/** The planner in time slices: 20,000 targets are ~0.2 s of CPU, which must not hold the event loop in one piece. */
async function build(
  ctx: SyncContext,
  startedAt: string,
  live: KubeObject[],
  namespaceExists: boolean,
  slice: TimeSlice,
): Promise<SyncTask[]> {
  const { tasks, warnings } = await buildSyncTasksSliced(
    {
      targets: ctx.targets,
      live,
      namespace: ctx.namespace,
      revision: ctx.revision,
      startedAt,
      operation: ctx.operation,
      namespaceExists,
      ...(ctx.managedNamespaceMetadata ? { managedNamespaceMetadata: ctx.managedNamespaceMetadata } : {}),
    },
    slice,
  );
  ctx.memory.planWarnings = warnings;
  return tasks;
}

async function discoverKinds(ctx: SyncContext, tasks: SyncTask[], slice: TimeSlice): Promise<void> {
  const missing = new Map<string, { apiVersion: string; kind: string }>();
  for (const task of tasks) {
    if (slice.due()) await slice.pause();
    const apiVersion = apiVersionOf(task);
    const key = `${apiVersion}/${task.kind}`;
    if (!ctx.memory.discovery.has(key)) missing.set(key, { apiVersion, kind: task.kind });
  }
  await Promise.all(
    [...missing].map(async ([key, { apiVersion, kind }]) => {
      const info = await ctx.cluster.discover(apiVersion, kind);
      if (info) ctx.memory.discovery.set(key, info);
    }),
  );
}

/** `<group>/<kind>` of every CRD among the targets (gitops-engine `hasCRDOfGroupKind`, live or not). */
export function kindsDefinedInSync(tasks: SyncTask[]): Set<string> {
  const kinds = new Set<string>();
  for (const task of tasks) {
    if (task.kind !== 'CustomResourceDefinition' || task.group !== 'apiextensions.k8s.io') continue;
    const key = crdDefinedKindOf(task);
    if (key !== undefined) kinds.add(key);
  }
  return kinds;
}

/**
 * Every task's kind must be served before anything is applied (gitops-engine `getSyncTasks`): an unserved kind is
 * valid only when a CRD of this sync defines it or the task (or the operation) has SkipDryRunOnMissingResource=true
 * — then its dry run is skipped. A dry run skipped for another reason (its Namespace is created by this sync) does
 * not excuse it: the kind check needs discovery only, not the Namespace.
 */
function validate(ctx: SyncContext, tasks: SyncTask[]): PassPlan['invalid'] {
  const invalid: PassPlan['invalid'] = [];
  let definedInSync: Set<string> | undefined;
  for (const task of tasks) {
    if (ctx.memory.discovery.has(`${apiVersionOf(task)}/${task.kind}`)) continue;
    definedInSync ??= kindsDefinedInSync(tasks);
    const obj = task.targetObj ?? task.liveObj;
    if (
      definedInSync.has(`${task.group}/${task.kind}`) ||
      hasSyncOption(ctx.operation, SKIP_DRY_RUN_ON_MISSING, obj)
    ) {
      task.skipDryRun = true;
      delete task.awaitsNamespace;
      continue;
    }
    invalid.push({ task, message: notServedMessage(task) });
  }
  return invalid;
}

/** The API server's words for a task whose kind is not served (the sync's and the diff's message). */
export function notServedMessage(task: SyncTask): string {
  return `the server could not find the requested resource: ${apiVersionOf(task)} ${task.kind} is not served (is its CRD installed?)`;
}

const POD_OWNERS = new Set(['Job', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

/** The collections to watch, each once (20,000 ConfigMaps of one namespace are one collection). */
async function watchTargetsOf(ctx: SyncContext, tasks: SyncTask[], slice: TimeSlice): Promise<WatchTarget[]> {
  const targets = new Map<string, WatchTarget>();
  const add = (target: WatchTarget) =>
    targets.set(`${target.apiVersion}/${target.kind}/${target.namespace}`, target);
  for (const task of tasks) {
    if (slice.due()) await slice.pause();
    const ref = objectRefOf(ctx, task);
    add({ apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace });
    // The Pods of hook Jobs and of workloads a wave may wait on: why they do not start is what the wave waits for.
    if (task.targetObj !== undefined && POD_OWNERS.has(task.kind))
      add({ apiVersion: 'v1', kind: 'Pod', namespace: task.namespace });
  }
  return [...targets.values()].filter((t) => ctx.memory.discovery.has(`${t.apiVersion}/${t.kind}`));
}

/** The live object of a task; undefined for kinds the API server does not serve (yet). */
function liveOf(ctx: SyncContext, task: SyncTask): Promise<KubeObject | undefined> {
  const served = ctx.memory.discovery.has(`${apiVersionOf(task)}/${task.kind}`);
  return served ? ctx.live.get(objectRefOf(ctx, task)) : Promise.resolve(undefined);
}

/** Every task's live object (liveOf), the requests started in time slices and awaited together. */
async function livesOf(
  ctx: SyncContext,
  tasks: SyncTask[],
  slice: TimeSlice,
): Promise<(KubeObject | undefined)[]> {
  const pending: Promise<KubeObject | undefined>[] = [];
  for (const task of tasks) {
    if (slice.due()) await slice.pause();
    pending.push(liveOf(ctx, task));
  }
  return Promise.all(pending);
}

/**
 * Builds, discovers, attaches live objects (fresh from the cache) and validates. Each step is a loop over every
 * task (~100–200 ms of CPU for 20,000 tasks, together half a second or more) and runs in time slices, so other
 * users' Slack acks, /healthz and lock renewals are answered in between.
 */
export async function planPass(ctx: SyncContext, startedAt: string): Promise<PassPlan> {
  const slice = new TimeSlice();
  const namespaceRef = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: ctx.namespace };
  // The destination Namespace is one of the collections read with the tracked objects.
  const tracked = await trackedLive(ctx, slice);
  const namespaceLive = ctx.namespace === '' ? undefined : await ctx.live.get(namespaceRef);
  const namespaceExists = ctx.namespace === '' || namespaceLive !== undefined;
  const draft = await build(ctx, startedAt, tracked, namespaceExists, slice);
  await discoverKinds(ctx, draft, slice);
  const lives = await livesOf(ctx, draft, slice);
  await slice.pause();
  const current = lives.filter((o): o is KubeObject => o !== undefined);
  const currentKeys = new Set(current.map(identityOf));
  await slice.pause();
  const live = [...current, ...tracked.filter((o) => !currentKeys.has(identityOf(o)))];
  const tasks = await build(ctx, startedAt, live, namespaceExists, slice);
  await discoverKinds(ctx, tasks, slice);
  clearClusterScopedNamespaces(
    tasks,
    (task) => ctx.memory.discovery.get(`${apiVersionOf(task)}/${task.kind}`)?.namespaced,
  );
  await slice.pause();
  const taskLives = await livesOf(ctx, tasks, slice);
  tasks.forEach((task, i) => {
    task.liveObj = taskLives[i];
  });
  await slice.pause();
  ctx.memory.sharedResources = sharedResourcesOf(ctx, tasks);
  ctx.live.watch(await watchTargetsOf(ctx, tasks, slice));
  await slice.pause();
  const invalid = validate(ctx, tasks);
  await slice.pause();
  return { tasks, invalid };
}

/**
 * Argo CD's SharedResourceWarning: live objects the manifests hold that another Application tracks. The sync
 * applies them anyway (taking them over), as Argo CD does, unless FailOnSharedResource=true; it says so first.
 */
function sharedResourcesOf(ctx: SyncContext, tasks: readonly SyncTask[]): string[] {
  const messages = new Set<string>();
  for (const task of tasks) {
    if (task.untracked || task.targetObj === undefined || task.liveObj === undefined) continue;
    const message = sharedResourceMessage(task.targetObj, task.liveObj, ctx.application, ctx.tracking);
    if (message !== undefined) messages.add(message);
  }
  return [...messages];
}
