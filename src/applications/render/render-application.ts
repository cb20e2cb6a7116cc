/**
 * Sources → rendered manifests: the desired objects of an Application at a revision, with the resolved revision
 * that the Slack header, the history and approvals bind to: a git commit SHA, a chart version (a chart from a Helm
 * repository or OCI registry), or for local folders the first 12 hex digits of the content hash of the rendered
 * objects. A multi-source Application (`spec.sources`) renders every source that is not only a ref (a `ref` without
 * `path` or `chart`), in order, and combines them: an object two sources produce is taken from the last, with a
 * warning (Argo CD's RepeatedResourceWarning); its revision is each source's, joined by `;` (domain/revision.ts).
 */
import type { Application, ApplicationSource } from '../../domain/index.js';
import { BotError, joinRevisions, splitRevisions } from '../../domain/index.js';
import {
  AbortedError,
  type PlanWarning,
  type SourcedObject,
  TimeSlice,
  uniqueTargetSteps,
} from '../../engine/index.js';
import type { PluginSettings } from '../../settings/index.js';
import type { GitRepositoryCache } from '../git/git-repository-cache.js';
import { type ChartCache, isRepositoryChart } from '../helm/chart-cache.js';
import {
  contentRevisionWork,
  DEFAULT_MANIFEST_LIMITS,
  ManifestBudget,
  type ManifestLimits,
} from '../manifests/index.js';
import { buildEnvOf } from './build-env.js';
import { renderKustomizeWith } from './kustomize-options.js';
import type { LocalFolderKeys } from './local-folder-keys.js';
import { type LocatedSource, locateSource } from './locate-source.js';
import { type Parse, parseOutput, renderDirectory } from './parse-rendered.js';
import { type RenderCache, renderKeyOf } from './render-cache.js';
import { HELM_INSTALL_HINT, renderHelm } from './render-helm.js';
import type { KustomizeOptions } from './render-kustomize.js';
import { renderPlugin } from './render-plugin.js';
import { isExecutable } from './run-tool.js';
import { type ApplicationSourceType, sourceTypeOf } from './source-type.js';

export interface RenderedApplication {
  targets: SourcedObject[];
  /**
   * Resolved git SHA (40 hex), chart version, or the first 12 hex of the SHA-256 content hash for local folders; for
   * a multi-source Application each source's, joined by `;`.
   */
  revision: string;
  warnings: PlanWarning[];
  /** The type of the (first rendered) source. */
  sourceType: ApplicationSourceType;
}

interface RenderApplicationOptions {
  /**
   * Overrides `targetRevision` (branch, tag, SHA, HEAD; a chart version or range); ignored, with a warning, for local
   * folders. For a multi-source Application one per source, joined by `;` (an empty one keeps that source's
   * targetRevision).
   */
  revision?: string;
  /**
   * Aborting stops the render at its next slice (between YAML documents, between files, between sources) with
   * AbortedError: a cancelled sync does not finish parsing a 20,000-object Application first.
   */
  signal?: AbortSignal;
}

export interface ApplicationRendererDeps {
  /** Folder of wavesync.yaml: local sources (empty repoURL) resolve against it. */
  baseDir: string;
  /** Needed for git sources. */
  git?: GitRepositoryCache;
  /** Needed for charts from Helm repositories and OCI registries. */
  charts?: ChartCache;
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
  /** Per-Application ceilings (wavesync.yaml `defaults.applicationLimits`); default DEFAULT_MANIFEST_LIMITS. */
  limits?: ManifestLimits;
  /** Rendered Applications at immutable revisions (createRenderCache); without it every call renders. */
  renderCache?: RenderCache<RenderedApplication>;
  /**
   * Content keys of local folders (createLocalFolderKeys): with them and `renderCache`, a local Directory-type
   * source is rendered again only when its selected files changed; without them every call renders it.
   */
  localFolders?: LocalFolderKeys;
}

export interface ApplicationRenderer {
  /**
   * Render `app`. @throws BotError: revision_not_found (unknown git revision or chart version), render_failed
   * (missing folder or binary, the tool's own error, git or chart repository failure), invalid_manifest
   * (ManifestError with file and line), too_large (over `limits`, counted over all sources: the figure, the limit
   * and the setting); AbortedError when `options.signal` aborts. Parsing yields to the event loop every few ms
   * (TimeSlice).
   */
  renderApplication(app: Application, options?: RenderApplicationOptions): Promise<RenderedApplication>;
}

/** One source of an Application, where it is, and (for a chart) the version fetched. */
interface PlacedSource {
  source: ApplicationSource;
  /** `sources[1]` for a multi-source Application, '' for a single source (messages). */
  label: string;
  located: LocatedSource;
  chartVersion?: string;
}

export function createApplicationRenderer(deps: ApplicationRendererDeps): ApplicationRenderer {
  return {
    async renderApplication(app, options = {}) {
      const sources = app.sources ?? [app.source];
      const multi = app.sources !== undefined;
      const requested = requestedRevisions(app, sources.length, options.revision);
      assertHelmAvailable(app, sources, deps.helmBinary ?? 'helm');
      // Warnings of the placement (not of the render: a cached render keeps its own, these come first).
      const ignored: PlanWarning[] = [];
      const placed: PlacedSource[] = [];
      for (const [i, source] of sources.entries()) {
        const label = multi ? `sources[${i}]` : '';
        placed.push(await placeSource(app, source, label, requested[i], deps));
        if (placed[i]!.located.sha === undefined && !isRepositoryChart(source) && requested[i]) {
          const which = multi ? `${app.name} ${label}` : app.name;
          ignored.push({
            file: app.origin,
            line: 1,
            message: `revision ${requested[i]} ignored: ${which} has a local source`,
          });
        }
      }
      const withIgnored = (result: RenderedApplication): RenderedApplication =>
        ignored.length === 0 ? result : { ...result, warnings: [...ignored, ...result.warnings] };
      // Every source at an immutable revision (commit, chart version) or a local folder whose files did not change:
      // rendered once (./render-cache.ts).
      const cacheKey = deps.renderCache
        ? renderKeyOf(app, await Promise.all(placed.map((p) => revisionKeyOf(p, deps.localFolders))))
        : undefined;
      // One time slice observing the cancel signal for the cache's copy and the render.
      const slice = new TimeSlice(undefined, options.signal);
      const cached = cacheKey === undefined ? undefined : await deps.renderCache?.get(cacheKey, slice);
      if (cached) return withIgnored(cached);
      const warnings: PlanWarning[] = [];
      const refs = new Map(
        placed.flatMap((p) => (p.source.ref ? [[p.source.ref, p.located.root] as const] : [])),
      );
      // One budget for the Application (all its sources together).
      const parse: Parse = {
        budget: new ManifestBudget(app.name, deps.limits ?? DEFAULT_MANIFEST_LIMITS),
        slice,
      };
      const revisions: string[] = [];
      // The key of what was rendered: a local folder's is the content key of the text this render parsed.
      const renderedKeys: (string | undefined)[] = [];
      const rendered: { label: string; targets: SourcedObject[]; sourceType: ApplicationSourceType }[] = [];
      for (const p of placed) {
        const pureRef = isPureRef(p.source);
        const sourceType = sourceTypeOf(p.source, p.located.dir);
        if (options.signal?.aborted) throw new AbortedError();
        const { targets, contentKey } = pureRef
          ? { targets: [], contentKey: undefined }
          : await renderTargets(app, p, sourceType, refs, deps, warnings, parse);
        // Both are loops over every object (tens of ms each at 50,000): in the parse's time slices.
        await parse.slice.run(uniqueTargetSteps(targets, app.destination.namespace ?? ''));
        if (!pureRef) rendered.push({ label: p.label, targets, sourceType });
        const revision = p.located.sha ?? p.chartVersion;
        revisions.push(revision ?? (await parse.slice.run(contentRevisionWork(targets))).slice(0, 12));
        renderedKeys.push(revision ?? contentKey);
      }
      parse.budget.check();
      const targets = multi ? combine(app, rendered, warnings) : (rendered[0]?.targets ?? []);
      const sourceType = rendered[0]?.sourceType ?? 'Directory';
      const result = { targets, revision: joinRevisions(revisions), warnings, sourceType };
      const renderedKey = deps.renderCache ? renderKeyOf(app, renderedKeys) : undefined;
      if (renderedKey !== undefined) await deps.renderCache?.set(renderedKey, result, slice);
      return withIgnored(result);
    },
  };
}

function isPureRef(source: ApplicationSource): boolean {
  return source.ref !== undefined && !source.path && !source.chart;
}

/**
 * What identifies the render of one source: its commit or chart version; for a local Directory-type folder its
 * content key (local folder keys: only the selected files are read, so only they matter); undefined for any other
 * local source (a Kustomize, Helm or plugin render may read any file: never cached) or when the folder cannot be
 * read (the render then reports it).
 */
async function revisionKeyOf(
  p: PlacedSource,
  folders: LocalFolderKeys | undefined,
): Promise<string | undefined> {
  const fixed = p.located.sha ?? p.chartVersion;
  if (fixed !== undefined || folders === undefined || isPureRef(p.source)) return fixed;
  try {
    if (sourceTypeOf(p.source, p.located.dir) !== 'Directory') return undefined;
    const key = await folders.keyOf(p.located.dir, p.source.directory);
    return key === undefined ? undefined : `local:${key}`;
  } catch {
    return undefined;
  }
}

/** The revision asked for each source: `revision` split per source (multi-source), else `[revision]`. */
function requestedRevisions(
  app: Application,
  count: number,
  revision: string | undefined,
): (string | undefined)[] {
  if (revision === undefined) return Array.from({ length: count }, () => undefined);
  const parts = splitRevisions(revision);
  if (app.sources === undefined) return [revision];
  if (parts.length !== count) {
    throw new BotError(
      'invalid_command',
      `${app.name} has ${count} sources: give one revision per source, in order, joined by ";" ` +
        `(an empty one keeps that source's targetRevision), e.g. ${Array.from({ length: count }, (_, i) => (i === 0 ? revision : '')).join(';')}`,
    );
  }
  return parts.map((p) => (p === '' ? undefined : p));
}

/**
 * A Helm source (a chart, or an explicit `helm:` block) needs the helm binary: say so before anything is fetched.
 * (A git folder that turns out to hold a Chart.yaml is only known to be Helm after its checkout.)
 */
function assertHelmAvailable(app: Application, sources: readonly ApplicationSource[], binary: string): void {
  const helmSources = sources.filter((s) => isRepositoryChart(s) || s.helm !== undefined);
  if (helmSources.length === 0 || isExecutable(binary)) return;
  const what = helmSources.map((s) => (s.chart ? `chart ${s.chart}` : `path ${s.path ?? '.'}`)).join(', ');
  throw new BotError(
    'render_failed',
    `${binary} is not on PATH; ${app.name} has a Helm source (${what}): ${HELM_INSTALL_HINT}; nothing was fetched`,
  );
}

async function placeSource(
  app: Application,
  source: ApplicationSource,
  label: string,
  requested: string | undefined,
  deps: ApplicationRendererDeps,
): Promise<PlacedSource> {
  if (isRepositoryChart(source)) {
    if (!deps.charts) {
      throw new BotError('render_failed', `${app.name}: charts from Helm repositories need the chart cache`);
    }
    const chart = await deps.charts.fetch(source, requested);
    const located = { root: chart.dir, dir: chart.dir, sha: undefined, revision: chart.version };
    return { source, label, located, chartVersion: chart.version };
  }
  const name = label ? `${app.name} ${label}` : app.name;
  const located = await locateSource(source, name, requested, { baseDir: deps.baseDir, git: deps.git });
  return { source, label, located };
}

async function renderTargets(
  app: Application,
  placed: PlacedSource,
  sourceType: ApplicationSourceType,
  refs: ReadonlyMap<string, string>,
  deps: ApplicationRendererDeps,
  warnings: PlanWarning[],
  parse: Parse,
): Promise<{ targets: SourcedObject[]; contentKey?: string | undefined }> {
  const { source, located } = placed;
  const timeoutMs = deps.timeoutMs ?? 120_000;
  if (sourceType === 'Directory')
    return renderDirectory(source, located.dir, warnings, parse, located.sha ? undefined : deps.localFolders);
  const env = buildEnvOf(app, located.sha ?? '', source);
  if (sourceType === 'Plugin') {
    const text = await renderPlugin({
      dir: located.dir,
      root: located.root,
      source: source.plugin ?? {},
      plugins: deps.plugins ?? [],
      env,
      processEnv: deps.processEnv ?? {},
      timeoutMs,
    });
    return {
      targets: await parseOutput(text, `the plugin output of ${located.dir}`, located.dir, warnings, parse),
    };
  }
  const text =
    sourceType === 'Kustomize'
      ? await renderKustomizeWith(
          located.dir,
          located.root,
          source.kustomize,
          { ...kustomizeRenderers(source.kustomize?.version, deps), timeoutMs },
          env,
        )
      : await renderHelm({
          chartDir: located.dir,
          root: located.root,
          releaseName: source.helm?.releaseName || app.name,
          namespace: app.destination.namespace ?? '',
          helm: source.helm,
          refs,
          timeoutMs,
          ...(deps.helmBinary === undefined ? {} : { binary: deps.helmBinary }),
        });
  return {
    targets: await parseOutput(
      text,
      `the ${sourceType} output of ${located.dir}`,
      located.dir,
      warnings,
      parse,
    ),
  };
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

/**
 * The objects of every source, in order; an object (group, kind, namespace, name) that a later source produces
 * again replaces the earlier one, with a warning naming both sources.
 */
function combine(
  app: Application,
  rendered: readonly { label: string; targets: SourcedObject[] }[],
  warnings: PlanWarning[],
): SourcedObject[] {
  const namespace = app.destination.namespace ?? '';
  const byIdentity = new Map<string, { label: string; target: SourcedObject }>();
  for (const { label, targets } of rendered) {
    for (const target of targets) {
      const { object } = target;
      const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '';
      const ns = object.metadata.namespace || namespace;
      const identity = `${group}/${object.kind}/${ns}/${object.metadata.name ?? object.metadata.generateName}`;
      const earlier = byIdentity.get(identity);
      if (earlier) {
        byIdentity.delete(identity);
        warnings.push({
          file: target.source.file,
          line: target.source.line,
          message: `${object.kind}/${object.metadata.name} is produced by ${earlier.label} and ${label}: the one of ${label} is used (Argo CD's RepeatedResourceWarning)`,
        });
      }
      byIdentity.set(identity, { label, target });
    }
  }
  return [...byIdentity.values()].map((v) => v.target);
}
