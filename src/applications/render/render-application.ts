/**
 * Sources → rendered manifests: the desired objects of an Application at a revision, with the resolved revision
 * (git commit SHA, or for local folders the first 12 hex digits of the content hash of the rendered objects) that
 * the Slack header, the history and approvals bind to.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Application } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import {
  AbortedError,
  assertUniqueTargets,
  type PlanWarning,
  type SourcedObject,
  TimeSlice,
} from '../../engine/index.js';
import type { GitRepositoryCache } from '../git/git-repository-cache.js';
import {
  contentRevisionOf,
  DEFAULT_MANIFEST_LIMITS,
  ManifestBudget,
  type ManifestLimits,
  parseManifestsSliced,
} from '../manifests/index.js';
import { renderKustomizeWith } from './kustomize-options.js';
import { type LocatedSource, locateSource } from './locate-source.js';
import { renderHelm } from './render-helm.js';
import type { KustomizeOptions } from './render-kustomize.js';
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
  /**
   * Aborting stops the render at its next slice (between YAML documents, between files) with AbortedError: a
   * cancelled sync does not finish parsing a 20,000-object Application first.
   */
  signal?: AbortSignal;
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
  /** Per-Application ceilings (wavesync.yaml `defaults.applicationLimits`); default DEFAULT_MANIFEST_LIMITS. */
  limits?: ManifestLimits;
}

export interface ApplicationRenderer {
  /**
   * Render `app`. @throws BotError: revision_not_found (unknown git revision), render_failed (missing folder or
   * binary, the tool's own error, git failure), invalid_manifest (ManifestError with file and line), too_large
   * (over `limits`: the figure, the limit and the setting); AbortedError when `options.signal` aborts. Parsing
   * yields to the event loop every few ms (TimeSlice).
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
      const parse: Parse = {
        budget: new ManifestBudget(app.name, deps.limits ?? DEFAULT_MANIFEST_LIMITS),
        slice: new TimeSlice(undefined, options.signal),
      };
      if (options.signal?.aborted) throw new AbortedError();
      const targets = await renderTargets(app, sourceType, located, deps, warnings, parse);
      parse.budget.check();
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
  parse: Parse,
): Promise<SourcedObject[]> {
  const timeoutMs = deps.timeoutMs ?? 120_000;
  if (sourceType === 'Directory') return renderDirectory(app, located.dir, warnings, parse);
  const text =
    sourceType === 'Kustomize'
      ? await renderKustomizeWith(located.dir, located.root, app.source.kustomize, {
          ...deps.kustomize,
          timeoutMs,
        })
      : await renderHelm({
          chartDir: located.dir,
          root: located.root,
          releaseName: app.source.helm?.releaseName || app.name,
          namespace: app.destination.namespace ?? '',
          helm: app.source.helm,
          timeoutMs,
          ...(deps.helmBinary === undefined ? {} : { binary: deps.helmBinary }),
        });
  parse.budget.addBytes(Buffer.byteLength(text), `the ${sourceType} output of ${located.dir}`);
  return collect(await parseSliced(text, located.dir, parse), warnings);
}

async function renderDirectory(
  app: Application,
  dir: string,
  warnings: PlanWarning[],
  parse: Parse,
): Promise<SourcedObject[]> {
  const selected = await selectDirectoryFiles(dir, app.source.directory);
  warnings.push(...selected.warnings.map((message) => ({ file: dir, line: 1, message })));
  // Sizes first: an Application over its byte limit is refused before any file is read or parsed.
  const cannotRead = (file: string) => (error: Error) => {
    throw new BotError('render_failed', `cannot read ${file}: ${error.message}`, { cause: error });
  };
  let bytes = 0;
  for (const file of selected.files) bytes += (await stat(file).catch(cannotRead(file))).size;
  const count = selected.files.length;
  parse.budget.addBytes(bytes, `${count} ${count === 1 ? 'file' : 'files'} in ${dir}`);
  const targets: SourcedObject[] = [];
  for (const file of selected.files) {
    const text = await readFile(file, 'utf8').catch(cannotRead(file));
    for (const target of collect(await parseSliced(text, file, parse), warnings)) targets.push(target);
  }
  return targets;
}

/** How one render parses: its limits and its time slices (and the cancel signal they observe). */
interface Parse {
  budget: ManifestBudget;
  slice: TimeSlice;
}

function parseSliced(text: string, file: string, parse: Parse) {
  return parseManifestsSliced(text, file, {
    slice: parse.slice,
    accept: (objects) => parse.budget.addObjects(objects),
  });
}

function collect(
  parsed: { objects: SourcedObject[]; warnings: PlanWarning[] },
  warnings: PlanWarning[],
): SourcedObject[] {
  warnings.push(...parsed.warnings);
  return parsed.objects;
}
