/**
 * Wiring from wavesync.yaml: the git repository cache, the Helm chart cache, the registry and the renderer configured
 * by `defaults`, `gitCredentials` and `helmCredentials`. The composition root (main, the demo, the CLI) calls this with the process environment
 * (config.ts processEnvironment()), which supplies PATH/HOME to git and the variables named by `tokenEnv`.
 */
import type { Logger } from '../logger.js';
import type { Settings } from '../settings/index.js';
import { resolveSettingsPath } from '../settings/index.js';
import { type ApplicationRegistry, createApplicationRegistry } from './application-registry.js';
import { createGitRepositoryCache, type GitRepositoryCache } from './git/git-repository-cache.js';
import { type ChartCache, createChartCache } from './helm/chart-cache.js';
import type { ApplicationSourceDeps } from './load-application-sources.js';
import { createLocalFolderKeys } from './render/local-folder-keys.js';
import { type ApplicationRenderer, createApplicationRenderer } from './render/render-application.js';
import { createRenderCache } from './render/render-cache.js';

export interface ApplicationsFromSettings {
  git: GitRepositoryCache;
  registry: ApplicationRegistry;
  renderer: ApplicationRenderer;
  /** The Helm chart cache the renderer uses (the revision watcher resolves chart versions through it). */
  charts?: ChartCache;
}

export interface ApplicationsWiring {
  env: Readonly<Record<string, string | undefined>>;
  logger?: Pick<Logger, 'debug' | 'warn'>;
  clusterApplications?: ApplicationSourceDeps['clusterApplications'];
}

/** The git cache for `settings`: `defaults.gitCacheDir`, credentials (token files resolved like other paths). */
export function gitRepositoryCacheFor(settings: Settings, wiring: ApplicationsWiring): GitRepositoryCache {
  return createGitRepositoryCache({
    cacheDir: resolveSettingsPath(settings, settings.defaults.gitCacheDir),
    credentials: settings.gitCredentials.map((c) => ({
      ...c,
      ...(c.tokenFile === undefined ? {} : { tokenFile: resolveSettingsPath(settings, c.tokenFile) }),
      ...(c.sshKeyFile === undefined ? {} : { sshKeyFile: resolveSettingsPath(settings, c.sshKeyFile) }),
    })),
    env: wiring.env,
    timeoutMs: settings.defaults.commandTimeoutSeconds * 1000,
    requestTimeoutMs: settings.defaults.gitRequestTimeoutSeconds * 1000,
    ...(wiring.logger === undefined ? {} : { logger: wiring.logger }),
  });
}

/** The Helm chart cache for `settings`: `defaults.helmCacheDir`, `helmCredentials` (files resolved like other paths). */
function chartCacheFor(settings: Settings, wiring: ApplicationsWiring): ChartCache {
  const resolve = (file: string | undefined) =>
    file === undefined ? undefined : resolveSettingsPath(settings, file);
  return createChartCache({
    cacheDir: resolveSettingsPath(settings, settings.defaults.helmCacheDir),
    credentials: settings.helmCredentials.map((c) => {
      const files = {
        passwordFile: resolve(c.passwordFile),
        caFile: resolve(c.caFile),
        certFile: resolve(c.certFile),
        keyFile: resolve(c.keyFile),
      };
      return { ...c, ...Object.fromEntries(Object.entries(files).filter(([, v]) => v !== undefined)) };
    }),
    env: wiring.env,
    timeoutMs: settings.defaults.commandTimeoutSeconds * 1000,
  });
}

/**
 * Load the registry and build the renderer for `settings`.
 * @throws the registry's load errors (invalid Applications, unreadable sources).
 */
export async function applicationsFromSettings(
  settings: Settings,
  wiring: ApplicationsWiring,
): Promise<ApplicationsFromSettings> {
  const git = gitRepositoryCacheFor(settings, wiring);
  const registry = await createApplicationRegistry(settings, {
    git,
    ...(wiring.logger === undefined ? {} : { logger: wiring.logger }),
    ...(wiring.clusterApplications === undefined ? {} : { clusterApplications: wiring.clusterApplications }),
  });
  const charts = chartCacheFor(settings, wiring);
  const renderer = createApplicationRenderer({
    baseDir: settings.baseDir,
    git,
    renderCache: createRenderCache(),
    localFolders: createLocalFolderKeys(),
    charts,
    timeoutMs: settings.defaults.commandTimeoutSeconds * 1000,
    plugins: settings.plugins,
    processEnv: wiring.env,
    kustomizeVersions: Object.fromEntries(
      Object.entries(settings.kustomize.versions).map(([v, bin]) => [
        v,
        // a bare name (`kustomize-v4`) is looked up on PATH, a path resolves like other paths of wavesync.yaml
        bin.includes('/') ? resolveSettingsPath(settings, bin) : bin,
      ]),
    ),
    limits: settings.defaults.applicationLimits,
  });
  return { git, registry, renderer, charts };
}
