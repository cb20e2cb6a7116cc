/**
 * The DeletionPlanner port `/sync delete` codes against (src/slack re-exports it from src/slack/ports.ts),
 * and its implementation over the Applications registry and a cluster per Application: the Application from
 * the registry, its tracked live objects listed through `clusterFor(app)`, the plan from those
 * (planApplicationDeletion) and, when the deletion cascades, the PreDelete/PostDelete hooks of its rendered
 * manifests. The bot reads the cluster only here (list); the worker deletes. Which cluster adapter
 * `clusterFor` returns is the composition root's choice (src/main: the retrying Kubernetes cluster through
 * the `clusters:` mapping of wavesync.yaml).
 */
import type { ApplicationRegistry, ApplicationRenderer } from '../applications/index.js';
import type { Application, DeletionCascade, ResourceTracking } from '../domain/index.js';
import { type Cluster, listTrackedLiveObjects } from '../engine/index.js';
import { cascadeOf, type DeletionPlan, finalizersForCascade, planDeletion } from './application-deletion.js';
import { type DeletionHooks, renderedDeletionHooks } from './deletion-hooks.js';

/**
 * What `/sync delete` shows before anything is queued: the plan of deleting an Application from its tracked live
 * objects.
 */
export interface DeletionPlanner {
  /**
   * The DeletionPlan of `application` now; `cascade` undefined follows the Application's finalizers.
   * @throws BotError('application_not_found') for a name not in the registry; BotError / ClusterError when the
   * cluster cannot be read (the command says so; nothing is queued).
   */
  plan(application: string, cascade: DeletionCascade | undefined): Promise<DeletionPlan>;
}

export interface DeletionPlannerDeps {
  /** The Applications and their renderer (ApplicationsFromSettings). */
  apps: {
    registry: Pick<ApplicationRegistry, 'get'>;
    renderer: Pick<ApplicationRenderer, 'renderApplication'>;
  };
  /**
   * The cluster of an Application's destination (src/kube createClusterProvider).
   * @throws BotError('invalid_config') for an unmapped destination or unknown context.
   */
  clusterFor(app: Application): Cluster;
  /** How Applications' objects are marked (wavesync.yaml `resourceTracking`); default annotation tracking. */
  tracking?: ResourceTracking;
}

export function createDeletionPlanner(deps: DeletionPlannerDeps): DeletionPlanner {
  return {
    async plan(application, cascade) {
      const app = deps.apps.registry.get(application);
      return planApplicationDeletion(
        app,
        deps.clusterFor(app),
        cascade,
        () => renderedDeletionHooks(deps.apps, app),
        deps.tracking,
      );
    },
  };
}

/**
 * The DeletionPlan of `app` now: its tracked live objects (`tracking`, top-level only) listed through `cluster`, planned with `cascade` (undefined: its own finalizers), and its PreDelete/PostDelete
 * `hooks` when the deletion cascades.
 * @throws ClusterError when the cluster cannot be listed.
 */
async function planApplicationDeletion(
  app: Application,
  cluster: Cluster,
  cascade: DeletionCascade | undefined,
  hooks?: () => Promise<DeletionHooks>,
  tracking?: ResourceTracking,
): Promise<DeletionPlan> {
  const live = await listTrackedLiveObjects(cluster, app.name, tracking);
  const cascades = cascadeOf(finalizersForCascade(app, cascade)) !== 'orphan';
  return planDeletion(app, live, cascade, cascades && hooks ? await hooks() : undefined);
}
