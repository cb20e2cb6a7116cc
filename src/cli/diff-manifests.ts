/**
 * The work behind `wavesync diff` (loaded lazily, like sync-manifests.ts): the desired objects — manifests at a
 * path, or an Application of wavesync.yaml rendered as the worker renders it — against the cluster (the
 * kubeconfig given, else the Application's destination cluster from `clusters:`), through the diff engine.
 */
import path from 'node:path';
import { contentRevisionOf } from '../applications/index.js';
import { loadConfig } from '../config.js';
import {
  BotError,
  type ResourceTracking,
  type SyncOperation,
  withApplicationSyncOptions,
} from '../domain/index.js';
import {
  type ApplicationDiff,
  computeApplicationDiff,
  ignoreDifferencesOf,
  type SourcedObject,
} from '../engine/index.js';
import { createClusterProvider } from '../kube/cluster-provider.js';
import { createKubeCluster } from '../kube/kube-cluster.js';
import { contextNamespaceOf, loadKubeConfig } from '../kube/load-kube-config.js';
import { loadManifestsCached } from './manifest-parse-cache.js';
import { refOf, renderApplicationNamed } from './plan-application.js';
import { rethrowClusterError } from './sync-manifests.js';
import { rejectPathAndApp } from './target-or-app.js';

/** Options of `wavesync diff` as commander parses them. */
export interface DiffCommandOptions {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  app?: string;
  config?: string;
  revision?: string;
  prune: boolean;
  syncOption: string[];
  output: 'text' | 'json';
  color: 'auto' | 'always' | 'never';
}

/**
 * The diff `wavesync diff` prints. @throws BotError for bad input (path and --app both or neither, --revision
 * without --app, unknown Application, bad manifests) and `cluster_error` when the cluster cannot be read.
 */
export async function diffForCommand(
  target: string | undefined,
  options: DiffCommandOptions,
): Promise<ApplicationDiff> {
  rejectPathAndApp(target, options.app);
  if (options.app === undefined && target === undefined) {
    throw new BotError(
      'invalid_command',
      'name what to diff: a manifest path, or --app <name> with wavesync.yaml',
    );
  }
  const kubeconfigGiven = options.kubeconfig !== undefined || options.context !== undefined;
  const kc = () => loadKubeConfig({ kubeconfig: options.kubeconfig, context: options.context });
  let input: {
    application: string;
    tracking?: ResourceTracking;
    targets: SourcedObject[];
    namespace: string;
    revision: string;
    operation: SyncOperation;
    cluster: ReturnType<typeof createKubeCluster>;
    warnings: string[];
    rules: ReturnType<typeof ignoreDifferencesOf>['rules'];
    /** The symbolic ref of a git source (displayRevision). */
    ref?: string;
  };
  if (options.app !== undefined) {
    const { app, rendered, settings } = await renderApplicationNamed(options.app, options);
    const ignored = ignoreDifferencesOf(app);
    input = {
      application: app.name,
      tracking: settings.resourceTracking,
      targets: rendered.targets,
      namespace: options.namespace ?? app.destination.namespace ?? 'default',
      revision: rendered.revision,
      ...refOf(app, options.revision),
      operation: withApplicationSyncOptions(app, {
        prune: options.prune,
        dryRun: true,
        syncOptions: options.syncOption,
      }),
      cluster: kubeconfigGiven
        ? createKubeCluster(kc())
        : createClusterProvider({
            settings,
            kubeconfig: loadConfig().kubeconfig,
            createCluster: createKubeCluster,
          })(app),
      warnings: [...rendered.warnings.map((w) => w.message), ...ignored.warnings],
      rules: ignored.rules,
    };
  } else {
    if (options.revision !== undefined) {
      throw new BotError('invalid_command', '--revision needs --app (a path is compared as it is on disk)');
    }
    const file = target!;
    const config = kc();
    const loaded = await loadManifestsCached(file);
    input = {
      application: path.basename(path.resolve(file)).replace(/\.ya?ml$/, ''),
      targets: loaded.objects,
      namespace: options.namespace ?? contextNamespaceOf(config),
      revision: contentRevisionOf(loaded.objects),
      operation: { prune: options.prune, dryRun: true, syncOptions: options.syncOption },
      cluster: createKubeCluster(config),
      warnings: loaded.warnings.map((w) => w.message),
      rules: [],
    };
  }
  const diff = await computeApplicationDiff({ ...input, ignoreDifferences: input.rules }).catch(
    rethrowClusterError,
  );
  return input.ref === undefined ? diff : { ...diff, ref: input.ref };
}
