/**
 * The verifier's look at a stage (`VerifierDeps.observe`): its tracked live objects against its manifests rendered
 * at the exact revision its sync put there (drift detection's comparison, the Application's ignoreDifferences and
 * CreateNamespace honoured), and the worst health of those objects as the worker judges it (the engine's checks,
 * Lua health scripts included; hooks left out). The composition root supplies the registry, the renderer, the
 * cluster of each destination and its health scripts.
 */
import { type Application, BotError, type ResourceTracking, worstHealth } from '../domain/index.js';
import { compareApplication } from '../drift/index.js';
import {
  type Cluster,
  getResourceHealth,
  ignoreDifferencesOf,
  isHook,
  listTrackedLiveObjects,
  type ScriptedHealth,
  type SourcedObject,
} from '../engine/index.js';
import type { StageObservation } from './verification.js';

export interface StageObserverDeps {
  /** The Application `name`, or undefined when the registry has none. */
  application(name: string): Application | undefined;
  /** Its manifests at `revision`. */
  render(app: Application, revision: string): Promise<{ targets: readonly SourcedObject[] }>;
  /** The Cluster of its destination. */
  clusterFor(app: Application): Cluster;
  /** The Lua health scripts for `cluster` (wavesync.yaml's health: and the cluster's argocd-cm), if any. */
  scriptedHealth(cluster: Cluster): Promise<ScriptedHealth | undefined>;
  /** How Applications' objects are marked (wavesync.yaml `resourceTracking`). */
  tracking: ResourceTracking | undefined;
}

/** Look at a stage: its live objects against its manifests at `revision`, and their health. */
export function createStageObserver(
  deps: StageObserverDeps,
): (application: string, revision: string) => Promise<StageObservation> {
  return async (application, revision) => {
    const app = deps.application(application);
    if (!app) throw new BotError('application_not_found', `no Application named ${application}`);
    const rendered = await deps.render(app, revision);
    const cluster = deps.clusterFor(app);
    const live = await listTrackedLiveObjects(cluster, app.name, deps.tracking);
    const scriptedHealth = await deps.scriptedHealth(cluster);
    const { differences } = compareApplication(
      rendered.targets,
      live,
      app.destination.namespace ?? 'default',
      {
        createNamespace: app.syncPolicy?.syncOptions?.includes('CreateNamespace=true') ?? false,
        ignoreDifferences: ignoreDifferencesOf(app).rules,
      },
    );
    const judged = await Promise.all(
      live
        .filter((o) => !isHook(o))
        .map((o) => getResourceHealth(o, scriptedHealth ? { scripted: scriptedHealth } : {})),
    );
    const health = worstHealth(judged.filter((h) => h !== undefined));
    return { health, outOfSync: differences.length };
  };
}
