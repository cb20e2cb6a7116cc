/**
 * Promotion wired in the bot process (roles `bot` and `serve`): the verifier (src/promotion startVerifier) with its
 * `observe` port — the stage's manifests rendered at the exact revision its sync put there, compared with its
 * tracked live objects (drift detection's comparison) and their health (the engine's checks, Lua health scripts
 * included) — and the Redis store and lease it shares with the other replicas and the worker.
 */
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Config } from '../config.js';
import { BotError, worstHealth } from '../domain/index.js';
import { compareApplication } from '../drift/index.js';
import { getResourceHealth, ignoreDifferencesOf, isHook, listTrackedLiveObjects } from '../engine/index.js';
import { ARGOCD_CM_REUSE_MS, scriptedHealthSource } from '../health-scripts/index.js';
import { createClusterProvider } from '../kube/cluster-provider.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import type { Logger } from '../logger.js';
import {
  type PromotionStore,
  type RunningVerifier,
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
  const prefix = deps.config.queue.prefix;
  const holder = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  return startVerifier({
    settings: deps.settings,
    store: deps.store,
    observe: stageObserver(deps),
    lease: async (ttlMs) =>
      (await deps.redis.set(`${prefix}:promotion:lease`, holder, 'PX', ttlMs, 'NX')) === 'OK',
    logger: deps.logger.child({ component: 'promotion' }),
  });
}

/** Look at a stage: its live objects against its manifests at `revision`, and their health. */
export function stageObserver(
  deps: Pick<PromotionWiringDeps, 'config' | 'settings' | 'apps'>,
): (application: string, revision: string) => Promise<StageObservation> {
  const { settings, apps } = deps;
  // Health as the worker judges it: wavesync.yaml's health: and the stage's cluster's argocd-cm below them.
  const scripts = scriptedHealthSource(settings.health, settings.file, {
    git: apps.git,
    reuseMs: ARGOCD_CM_REUSE_MS,
  });
  const clusterFor = createClusterProvider({
    settings,
    kubeconfig: deps.config.kubeconfig,
    createCluster: createRetryingKubeCluster,
  });
  return async (application, revision) => {
    const app = apps.registry.find(application);
    if (!app) throw new BotError('application_not_found', `no Application named ${application}`);
    const rendered = await apps.renderer.renderApplication(app, { revision });
    const cluster = clusterFor(app);
    const live = await listTrackedLiveObjects(cluster, app.name, settings.resourceTracking);
    const scriptedHealth = await scripts.forCluster(cluster);
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
