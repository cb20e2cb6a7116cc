/**
 * createDeletionPlanner — the bot's `/sync delete` planner: the Application from the registry, its cluster through
 * the same kubeconfig mapping the worker uses (wavesync.yaml `clusters:`), and the plan from its tracked live
 * objects (src/deletion planApplicationDeletion). The bot reads the cluster only here (list); the worker deletes.
 */
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Config } from '../config.js';
import { createClusterProvider } from '../kube/cluster-provider.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import type { Settings } from '../settings/index.js';
import type { DeletionPlanner } from '../slack/ports.js';
import { planApplicationDeletion, renderedDeletionHooks } from './index.js';

export function createDeletionPlanner(deps: {
  settings: Settings;
  config: Pick<Config, 'kubeconfig'>;
  apps: ApplicationsFromSettings;
}): DeletionPlanner {
  const clusterFor = createClusterProvider({
    settings: deps.settings,
    kubeconfig: deps.config.kubeconfig,
    createCluster: createRetryingKubeCluster,
  });
  return {
    async plan(application, cascade) {
      const app = deps.apps.registry.get(application);
      return planApplicationDeletion(app, clusterFor(app), cascade, () =>
        renderedDeletionHooks(deps.apps, app),
      );
    },
  };
}
