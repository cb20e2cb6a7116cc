/**
 * Promotion wired in the bot process (roles `bot` and `serve`): the verifier (src/promotion startVerifier) with its
 * `observe` port (src/promotion createStageObserver) over the registry, the renderer, the cluster of each stage's
 * destination and its health scripts, and the Redis store and lease it shares with the other replicas and the worker.
 */
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Config } from '../config.js';
import { ARGOCD_CM_REUSE_MS, scriptedHealthSource } from '../health-scripts/index.js';
import { createClusterProvider } from '../kube/cluster-provider.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import type { Logger } from '../logger.js';
import {
  createStageObserver,
  type PromotionStore,
  type RunningVerifier,
  redisVerifierLease,
  type StageObservation,
  startVerifier,
} from '../promotion/index.js';
import type { RedisClient } from '../queue/index.js';
import type { Settings } from '../settings/index.js';

export interface PromotionWiringDeps {
  config: Pick<Config, 'kubeconfig' | 'queue'>;
  settings: Settings;
  apps: ApplicationsFromSettings;
  redis: RedisClient;
  store: PromotionStore;
  logger: Logger;
}

/** Start verifying the pipelines' stages (nothing runs without `promotion.pipelines`). */
export function startPromotionVerifier(deps: PromotionWiringDeps): RunningVerifier {
  const holder = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  return startVerifier({
    settings: deps.settings,
    store: deps.store,
    observe: stageObserver(deps),
    lease: redisVerifierLease(deps.redis, deps.config.queue.prefix, holder),
    logger: deps.logger.child({ component: 'promotion' }),
  });
}

/** The verifier's look at a stage (src/promotion createStageObserver), over the registry, renderer and clusters. */
export function stageObserver(
  deps: Pick<PromotionWiringDeps, 'config' | 'settings' | 'apps'>,
): (application: string, revision: string) => Promise<StageObservation> {
  const { settings, apps } = deps;
  // Health as the worker judges it: wavesync.yaml's health: and the stage's cluster's argocd-cm below them.
  const scripts = scriptedHealthSource(settings.health, settings.file, {
    git: apps.git,
    reuseMs: ARGOCD_CM_REUSE_MS,
  });
  return createStageObserver({
    application: (name) => apps.registry.find(name),
    render: (app, revision) => apps.renderer.renderApplication(app, { revision }),
    clusterFor: createClusterProvider({
      settings,
      kubeconfig: deps.config.kubeconfig,
      createCluster: createRetryingKubeCluster,
    }),
    scriptedHealth: (cluster) => scripts.forCluster(cluster),
    tracking: settings.resourceTracking,
  });
}
