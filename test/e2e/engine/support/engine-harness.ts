/**
 * Harness for the engine's Done-means tests: a simulator on loopback, the real client-node adapter over HTTP,
 * and `sync()` that runs runOperation on manifests (a folder, or objects) and records every event.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../../../sim/index.js';
import { contentRevisionOf, loadManifests } from '../../../../src/applications/manifests/index.js';
import type {
  KubeObject,
  OperationState,
  ResourceTracking,
  SyncEvent,
  SyncOperation,
} from '../../../../src/domain/index.js';
import type {
  Cluster,
  EngineOptions,
  IgnoreDifferencesRule,
  SourcedObject,
} from '../../../../src/engine/index.js';
import { runOperation } from '../../../../src/engine/index.js';
import { createKubeCluster } from '../../../../src/kube/kube-cluster.js';

export interface Harness {
  sim: Simulator;
  cluster: Cluster;
  kubeconfig: string;
  /** Create a new destination namespace `<prefix>-<n>`, one per test, as the Argo CD e2e harness does. */
  freshNamespace(prefix: string): string;
  stop(): Promise<void>;
}

export async function startHarness(speed = 20, simOptions: SimulatorOptions = {}): Promise<Harness> {
  const sim = await startSimulator({ ...simOptions, speed });
  const kubeconfig = sim.kubeconfig({ namespace: 'default' });
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  let namespaces = 0;
  return {
    sim,
    cluster: createKubeCluster(kc, { watchTimeoutSeconds: 5 }),
    kubeconfig,
    freshNamespace(prefix) {
      const name = `${prefix}-${++namespaces}`;
      sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      return name;
    },
    stop: () => sim.stop(),
  };
}

export interface SyncRun {
  state: OperationState;
  events: SyncEvent[];
}

export interface SyncRequest {
  application?: string;
  namespace?: string;
  operation?: Partial<SyncOperation>;
  /** The Application's compiled ignoreDifferences (RunOperationInput.ignoreDifferences). */
  ignoreDifferences?: readonly IgnoreDifferencesRule[];
  options?: Partial<EngineOptions>;
  /** RunOperationInput.tracking (default annotation tracking). */
  tracking?: ResourceTracking;
  signal?: AbortSignal;
  pruneConfirmation?: () => Promise<string | undefined>;
  /** Called with every event as it is reported (before the next step runs). */
  onEvent?: (event: SyncEvent) => void;
}

/** Fast defaults for tests: short grace and health windows (ms of wall time). */
export const TEST_OPTIONS: Partial<EngineOptions> = {
  hookStartGraceMs: 1_500,
  healthTimeoutMs: 5_000,
  pollIntervalMs: 500,
  operationTimeoutMs: 60_000,
};

export async function syncObjects(
  h: Harness,
  targets: SourcedObject[],
  request: SyncRequest = {},
): Promise<SyncRun> {
  const events: SyncEvent[] = [];
  const state = await runOperation({
    application: request.application ?? request.namespace ?? 'app',
    targets,
    namespace: request.namespace ?? 'default',
    revision: contentRevisionOf(targets),
    operation: { prune: false, dryRun: false, syncOptions: [], ...request.operation },
    cluster: h.cluster,
    reporter: {
      report: async (event) => {
        events.push(event);
        request.onEvent?.(event);
      },
    },
    options: { ...TEST_OPTIONS, ...request.options },
    signal: request.signal,
    ...(request.pruneConfirmation ? { pruneConfirmation: request.pruneConfirmation } : {}),
    ...(request.ignoreDifferences ? { ignoreDifferences: request.ignoreDifferences } : {}),
    ...(request.tracking ? { tracking: request.tracking } : {}),
  });
  return { state, events };
}

export async function syncFolder(h: Harness, folder: string, request: SyncRequest = {}): Promise<SyncRun> {
  const { objects } = await loadManifests(folder);
  return syncObjects(h, objects, request);
}

/** `Kind/name` of applied, pruned and started tasks in event order (what the cluster saw, in order). */
export function actions(events: SyncEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === 'ResourceApplied')
      return [`${e.status === 'Pruned' ? 'prune' : 'apply'} ${e.task.kind}/${e.task.name}`];
    if (e.type === 'HookStarted') return [`hook ${e.task.kind}/${e.task.name}`];
    return [];
  });
}

/** (phase, wave) of every WaveStarted, in order. */
export function waves(events: SyncEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'WaveStarted' ? [`${e.wave.phase}/${e.wave.wave}`] : []));
}

/** Result rows `[name, syncPhase, status, hookPhase]` in result order. */
export function results(state: OperationState): [string, string, string | undefined, string | undefined][] {
  return state.syncResult.resources.map((r) => [r.name, r.syncPhase, r.status, r.hookPhase]);
}

export function live(
  h: Harness,
  apiVersion: string,
  kind: string,
  name: string,
  namespace = 'default',
): KubeObject | undefined {
  return h.sim.get({ apiVersion, kind, namespace, name }) as KubeObject | undefined;
}
