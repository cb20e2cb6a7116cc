/**
 * Looking at and acting on an Application's live resources (what `/sync resources` and `/sync action` use):
 * - `tree`: the objects the Application tracks and what they own (resource-tree.ts), each with its health (the
 *   engine's checks and Lua scripts) and the resource actions discovery offers for it;
 * - `run`: a resource action on one of those objects, as Argo CD runs it: only an action discovery offers, enabled,
 *   with the parameters it declares; each object the script patches is written with server-side apply (field
 *   manager ACTION_FIELD_MANAGER, forced, only the fields the action changed, so the sync's fields stay the sync's),
 *   each object it creates is created (in the source object's namespace when it names none). The object acted on
 *   must be one of the Application's (tracked, or owned by a tracked one); a patch may only touch that object.
 *   Everything is validated before anything is written.
 */
import type { HealthStatus, KubeObject, ResourceTracking } from '../domain/index.js';
import { splitApiVersion } from '../domain/index.js';
import {
  ACTION_FIELD_MANAGER,
  type Cluster,
  getResourceHealth,
  listTrackedLiveObjects,
  type ScriptedHealth,
} from '../engine/index.js';
import { type ResourceActionCatalog, ResourceActionError } from './action-catalog.js';
import {
  type ImpactedResource,
  isJsonObject,
  type JsonObject,
  type ResourceAction,
} from './action-results.js';
import { currentPods, pickFailingPod } from './failing-pod.js';
import {
  type EventLine,
  eventsOf,
  findLine,
  type LogOptions,
  type LogsResult,
  podsOf,
  readLogs,
  secretValues,
} from './logs-and-events.js';
import type { Json } from './lua-json.js';
import { buildResourceTree, CHILD_KINDS, kindSlashName, type ResourceLine } from './resource-tree.js';

export interface ResourceViewLine extends ResourceLine {
  /** What discovery offers for the object (disabled ones included); [] when nothing or discovery failed. */
  actions: ResourceAction[];
}

interface ActionRequest {
  application: string;
  action: string;
  /** `Kind/name` (kind case-insensitive), optionally `namespace/Kind/name`. */
  target: string;
  params?: Readonly<Record<string, string>>;
}

interface ActionOutcome {
  /** `Kind/name` of the object acted on. */
  target: string;
  namespace: string;
  /** What was written: `patched Deployment/web`, `created Job/backup-manual-x`. */
  changes: string[];
}

export interface ResourceViews {
  tree(application: string): Promise<ResourceViewLine[]>;
  /** Throws ResourceActionError for a request that cannot run (nothing written), ActionScriptError for a script error. */
  run(request: ActionRequest): Promise<ActionOutcome>;
  /**
   * What `run` would write now, nothing written (`would patch Deployment/web`): the same checks (offered, enabled,
   * declared parameters, the script's result allowed), so an approval is asked only for an action that can run.
   */
  plan(request: ActionRequest): Promise<ActionOutcome>;
  /** Logs of a Pod, or of the Pods of a workload, or (no target) of every Pod of the Application; Secrets redacted. */
  logs(application: string, target: string | undefined, options: LogOptions): Promise<LogsResult>;
  /** Recent Events of the Application's objects (or of the one named). */
  events(application: string, target?: string): Promise<EventLine[]>;
  /**
   * The failing Pod of workload `target` (`namespace/Kind/name`; a Deployment's current ReplicaSet's Pods) and the
   * last `tail` lines of its failing container (the crashed instance's when it restarted), Secrets redacted, at most
   * MAX_LOG_BYTES; undefined when no Pod of it fails.
   */
  failingPodLog(application: string, target: string, tail: number): Promise<FailingPodLog | undefined>;
}

interface FailingPodLog {
  /** `Pod/web-7d9c-abcde`. */
  pod: string;
  container: string;
  previous: boolean;
  /** Why this Pod: `CrashLoopBackOff, 4 restarts`. */
  why: string;
  lines: string[];
  /** Why there are no lines, when there are none. */
  problem?: string;
}

export interface ResourceViewsDeps {
  clusterFor(application: string): Pick<Cluster, 'listKinds' | 'list' | 'apply' | 'create' | 'podLogs'>;
  actions: ResourceActionCatalog;
  tracking?: ResourceTracking;
  /**
   * The health scripts for an Application's objects: the worker's source chain (wavesync.yaml's `health:`, then its
   * destination cluster's argocd-cm); undefined, or omitted, for none.
   */
  scriptedFor?(application: string): Promise<ScriptedHealth | undefined>;
}

/** The fields of `after` that differ from `before` (lists whole), for an apply that claims only those. */
function changedFields(before: Json | undefined, after: Json): Json | undefined {
  if (isJsonObject(after) && isJsonObject(before)) {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(after)) {
      const changed = changedFields(before[key], value);
      if (changed !== undefined) out[key] = changed;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : after;
}

function sameObject(a: JsonObject, b: KubeObject): boolean {
  const meta = isJsonObject(a.metadata) ? a.metadata : {};
  return (
    splitApiVersion(String(a.apiVersion ?? '')).group === splitApiVersion(b.apiVersion).group &&
    a.kind === b.kind &&
    String(meta.name ?? '') === (b.metadata.name ?? '') &&
    String(meta.namespace ?? b.metadata.namespace ?? '') === (b.metadata.namespace ?? '')
  );
}

export function createResourceViews(deps: ResourceViewsDeps): ResourceViews {
  const healthOf = (
    obj: KubeObject,
    scripted: ScriptedHealth | undefined,
  ): Promise<HealthStatus | undefined> => getResourceHealth(obj, scripted ? { scripted } : {});
  const discover = (obj: KubeObject): ResourceAction[] => {
    try {
      return deps.actions.discover(obj as unknown as JsonObject);
    } catch {
      return [];
    }
  };
  const lines = async (application: string): Promise<ResourceLine[]> => {
    const cluster = deps.clusterFor(application);
    const tracked = await listTrackedLiveObjects(cluster, application, deps.tracking);
    const namespaces = [...new Set(tracked.map((o) => o.metadata.namespace).filter((n): n is string => !!n))];
    const candidates = await Promise.all(
      namespaces.flatMap((namespace) =>
        CHILD_KINDS.map((k) => cluster.list({ ...k, namespace }).catch(() => [])),
      ),
    );
    const objects = [...tracked, ...candidates.flat()];
    // Health is judged for all at once (scripted health runs in batches off the main thread), then looked up.
    const scripted = await deps.scriptedFor?.(application);
    const judged = new Map(
      await Promise.all(objects.map(async (o) => [o, await healthOf(o, scripted)] as const)),
    );
    return buildResourceTree({ tracked, candidates: candidates.flat(), health: (o) => judged.get(o) });
  };
  const planned = async (request: ActionRequest) => {
    const target = findLine(await lines(request.application), request.application, request.target).object;
    const live = target as unknown as JsonObject;
    const impacted = deps.actions.runOffered(live, request.action, request.params ?? {});
    return { target, writes: impacted.map((item) => planWrite(item, target, live)) };
  };
  return {
    async tree(application) {
      return (await lines(application)).map((line) => ({ ...line, actions: discover(line.object) }));
    },
    async logs(application, target, options) {
      const all = await lines(application);
      const pods = podsOf(all, target === undefined ? undefined : findLine(all, application, target));
      const secrets = secretValues(all.map((l) => l.object).filter((o) => o.kind === 'Secret'));
      return readLogs(deps.clusterFor(application), pods, secrets, options);
    },
    async events(application, target) {
      const all = await lines(application);
      const objects =
        target === undefined ? all.map((l) => l.object) : [findLine(all, application, target).object];
      const cluster = deps.clusterFor(application);
      const namespaces = [
        ...new Set(objects.map((o) => o.metadata.namespace).filter((n): n is string => !!n)),
      ];
      const events = await Promise.all(
        namespaces.map((namespace) => cluster.list({ apiVersion: 'v1', kind: 'Event', namespace })),
      );
      return eventsOf(events.flat(), objects);
    },
    async plan(request) {
      const { target, writes } = await planned(request);
      const changes = writes.map((write) =>
        write.kind === 'none'
          ? `nothing to change in ${kindSlashName(target)}`
          : `would ${write.kind === 'apply' ? 'patch' : 'create'} ${kindSlashName(write.object)}`,
      );
      return { target: kindSlashName(target), namespace: target.metadata.namespace ?? '', changes };
    },
    async failingPodLog(application, target, tail) {
      const all = await lines(application);
      const failing = pickFailingPod(currentPods(all, findLine(all, application, target)));
      if (!failing) return undefined;
      const secrets = secretValues(all.map((l) => l.object).filter((o) => o.kind === 'Secret'));
      const cluster = deps.clusterFor(application);
      const read = (previous: boolean) =>
        readLogs(cluster, [failing.pod], secrets, {
          tail,
          container: failing.container,
          ...(previous ? { previous: true } : {}),
        });
      let log = (await read(failing.previous)).logs[0];
      let previous = failing.previous;
      // No lines from a previous instance (none yet: a container waiting in its first back-off has a terminated
      // instance, the one that crashed, and no earlier one; or it was replaced meanwhile): the current one's log.
      if (previous && (log === undefined || log.lines.length === 0)) {
        log = (await read(false)).logs[0];
        previous = false;
      }
      return {
        pod: kindSlashName(failing.pod),
        container: failing.container,
        previous,
        why: failing.why,
        lines: log?.lines ?? [],
        ...(log?.problem ? { problem: log.problem } : {}),
      };
    },
    async run(request) {
      const { target, writes } = await planned(request);
      const cluster = deps.clusterFor(request.application);
      const changes: string[] = [];
      for (const write of writes) {
        if (write.kind === 'none') changes.push(`nothing to change in ${kindSlashName(target)}`);
        else if (write.kind === 'apply') {
          await cluster.apply(write.object, {
            dryRun: false,
            force: true,
            fieldManager: ACTION_FIELD_MANAGER,
          });
          changes.push(`patched ${kindSlashName(write.object)}`);
        } else {
          const created = await cluster.create(write.object, {
            dryRun: false,
            fieldManager: ACTION_FIELD_MANAGER,
          });
          changes.push(`created ${kindSlashName(created)}`);
        }
      }
      return { target: kindSlashName(target), namespace: target.metadata.namespace ?? '', changes };
    },
  };
}

type Write = { kind: 'none' } | { kind: 'apply' | 'create'; object: KubeObject };

/** What one impacted resource writes; throws before anything is written when it is not allowed. */
function planWrite(item: ImpactedResource, target: KubeObject, live: JsonObject): Write {
  const resource = item.resource;
  if (
    typeof resource.apiVersion !== 'string' ||
    typeof resource.kind !== 'string' ||
    !isJsonObject(resource.metadata)
  ) {
    throw new ResourceActionError(
      `the action returned a ${item.operation} without apiVersion, kind and metadata`,
    );
  }
  if (item.operation === 'patch') {
    if (!sameObject(resource, target)) {
      throw new ResourceActionError(
        `the action patches ${String(resource.kind)}/${String(resource.metadata.name)}: a patch may only change ${kindSlashName(target)}`,
      );
    }
    const changed = changedFields(live, resource);
    if (changed === undefined || !isJsonObject(changed)) return { kind: 'none' };
    const { metadata: changedMeta, status: _status, ...rest } = changed;
    const metadata = {
      ...(isJsonObject(changedMeta) ? changedMeta : {}),
      name: target.metadata.name,
      ...(target.metadata.namespace ? { namespace: target.metadata.namespace } : {}),
    };
    const object = {
      ...rest,
      apiVersion: target.apiVersion,
      kind: target.kind,
      metadata,
    } as unknown as KubeObject;
    for (const field of ['managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation']) {
      delete (object.metadata as Record<string, unknown>)[field];
    }
    return Object.keys(rest).length === 0 && Object.keys(metadata).length <= 2
      ? { kind: 'none' }
      : { kind: 'apply', object };
  }
  const metadata = { ...resource.metadata };
  if (metadata.namespace === undefined && target.metadata.namespace)
    metadata.namespace = target.metadata.namespace;
  if (typeof metadata.name !== 'string' && typeof metadata.generateName !== 'string') {
    throw new ResourceActionError(`the action creates a ${String(resource.kind)} without a name`);
  }
  return { kind: 'create', object: { ...resource, metadata } as unknown as KubeObject };
}
