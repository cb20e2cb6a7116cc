/**
 * Sources → rendered manifests: the desired objects of an Application at a revision, with the resolved revision
 * (git commit SHA, or for local folders the first 12 hex digits of the content hash of the rendered objects) that
 * the Slack header, the history and approvals bind to.
 */
import { readFile } from 'node:fs/promises';
import type { Application } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { assertUniqueTargets, type PlanWarning, type SourcedObject } from '../../engine/index.js';
import type { PluginSettings } from '../../settings/index.js';
import type { GitRepositoryCache } from '../git/git-repository-cache.js';
import { contentRevisionOf, parseManifests } from '../manifests/index.js';
import { buildEnvOf } from './build-env.js';
import { renderKustomizeWith } from './kustomize-options.js';
import { type LocatedSource, locateSource } from './locate-source.js';
import { renderHelm } from './render-helm.js';
import type { KustomizeOptions } from './render-kustomize.js';
import { renderPlugin } from './render-plugin.js';
import { selectDirectoryFiles } from './select-directory-files.js';
import { type ApplicationSourceType, sourceTypeOf } from './source-type.js';

export interface RenderedApplication {
  targets: SourcedObject[];
  /** Resolved git SHA (40 hex), or the first 12 hex of the SHA-256 content hash for local folders. */
  revision: string;
  warnings: PlanWarning[];
  sourceType: ApplicationSourceType;
}

export interface RenderApplicationOptions {
  /** Overrides `targetRevision` (branch, tag, SHA, HEAD); ignored, with a warning, for local folders. */
  revision?: string;
}

export interface ApplicationRendererDeps {
  /** Folder of wavesync.yaml: local sources (empty repoURL) resolve against it. */
  baseDir: string;
  /** Needed for git sources. */
  git?: GitRepositoryCache;
  /** Timeout of one helm or kustomize process, in ms (default 120000). */
  timeoutMs?: number;
  /** helm binary (default `helm` on PATH). */
  helmBinary?: string;
  /** Kustomize renderers (default `kustomize build`, then `kubectl kustomize`). */
  kustomize?: Omit<KustomizeOptions, 'timeoutMs'>;
  /** wavesync.yaml `kustomize.versions`: the kustomize binary of each `spec.source.kustomize.version`. */
  kustomizeVersions?: Readonly<Record<string, string>>;
  /** wavesync.yaml `plugins:` (Config Management Plugins). */
  plugins?: readonly PluginSettings[];
  /** This process's environment; a plugin gets its PATH and HOME. */
  processEnv?: Readonly<Record<string, string | undefined>>;
}

export interface ApplicationRenderer {
  /**
   * Render `app`. @throws BotError: revision_not_found (unknown git revision), render_failed (missing folder or
   * binary, the tool's own error, git failure), invalid_manifest (ManifestError with file and line).
   */
  renderApplication(app: Application, options?: RenderApplicationOptions): Promise<RenderedApplication>;
}

export function createApplicationRenderer(deps: ApplicationRendererDeps): ApplicationRenderer {
  return {
    async renderApplication(app, options = {}) {
      const located = await locateSource(app, options.revision, { baseDir: deps.baseDir, git: deps.git });
      const warnings: PlanWarning[] = [];
      if (located.sha === undefined && options.revision !== undefined) {
        warnings.push({
          file: app.origin,
          line: 1,
          message: `revision ${options.revision} ignored: ${app.name} has a local source`,
        });
      }
      const sourceType = sourceTypeOf(app.source, located.dir);
      const targets = await renderTargets(app, sourceType, located, deps, warnings);
      assertUniqueTargets(targets, app.destination.namespace ?? '');
      const revision = located.sha ?? contentRevisionOf(targets).slice(0, 12);
      return { targets, revision, warnings, sourceType };
    },
  };
}

async function renderTargets(
  app: Application,
  sourceType: ApplicationSourceType,
  located: LocatedSource,
  deps: ApplicationRendererDeps,
  warnings: PlanWarning[],
): Promise<SourcedObject[]> {
  const timeoutMs = deps.timeoutMs ?? 120_000;
  if (sourceType === 'Directory') return renderDirectory(app, located.dir, warnings);
  if (sourceType === 'Plugin') {
    const text = await renderPlugin({
      dir: located.dir,
      root: located.root,
      source: app.source.plugin ?? {},
      plugins: deps.plugins ?? [],
      env: buildEnvOf(app, located.sha ?? ''),
      processEnv: deps.processEnv ?? {},
      timeoutMs,
    });
    return collect(parseManifests(text, located.dir), warnings);
  }
  const text =
    sourceType === 'Kustomize'
      ? await renderKustomizeWith(
          located.dir,
          located.root,
          app.source.kustomize,
          { ...kustomizeRenderers(app.source.kustomize?.version, deps), timeoutMs },
          buildEnvOf(app, located.sha ?? ''),
        )
      : await renderHelm({
          chartDir: located.dir,
          root: located.root,
          releaseName: app.source.helm?.releaseName || app.name,
          namespace: app.destination.namespace ?? '',
          helm: app.source.helm,
          timeoutMs,
          ...(deps.helmBinary === undefined ? {} : { binary: deps.helmBinary }),
        });
  return collect(parseManifests(text, located.dir), warnings);
}

/**
 * The renderer of `version` (Argo CD: argocd-cm `kustomize.path.<version>`): the binary wavesync.yaml declares for
 * it under `kustomize.versions`. @throws BotError('render_failed') naming an undeclared version.
 */
function kustomizeRenderers(
  version: string | undefined,
  deps: ApplicationRendererDeps,
): Omit<KustomizeOptions, 'timeoutMs'> {
  if (!version) return deps.kustomize ?? {};
  const binary = deps.kustomizeVersions?.[version];
  if (binary === undefined) {
    const known = Object.keys(deps.kustomizeVersions ?? {});
    throw new BotError(
      'render_failed',
      `spec.source.kustomize.version ${version} is not declared in wavesync.yaml ` +
        `(kustomize.versions: {${version}: /path/to/kustomize}; declared: ${known.join(', ') || 'none'})`,
    );
  }
  return { renderers: [{ command: binary, args: ['build'] }] };
}

async function renderDirectory(
  app: Application,
  dir: string,
  warnings: PlanWarning[],
): Promise<SourcedObject[]> {
  const selected = await selectDirectoryFiles(dir, app.source.directory);
  warnings.push(...selected.warnings.map((message) => ({ file: dir, line: 1, message })));
  const targets: SourcedObject[] = [];
  for (const file of selected.files) {
    const text = await readFile(file, 'utf8').catch((error: Error) => {
      throw new BotError('render_failed', `cannot read ${file}: ${error.message}`, { cause: error });
    });
    targets.push(...collect(parseManifests(text, file), warnings));
  }
  return targets;
}

function collect(
  parsed: { objects: SourcedObject[]; warnings: PlanWarning[] },
  warnings: PlanWarning[],
): SourcedObject[] {
  warnings.push(...parsed.warnings);
  return parsed.objects;
}
