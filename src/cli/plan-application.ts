/**
 * The work behind `wavesync plan` (loaded when the command runs, so `--help` and other commands start without
 * the engine, YAML parser, git or client-node): plan a manifest path or an Application of wavesync.yaml, print it.
 */

import type {
  ApplicationRegistry,
  ApplicationRenderer,
  GitRepositoryCache,
  RenderedApplication,
} from '../applications/index.js';
import {
  type Application,
  BotError,
  displayRevision,
  hasOnlyLocalSources,
  joinRevisions,
  sourcesOf,
  splitRevisions,
} from '../domain/index.js';
import type { BuildSyncTasksResult } from '../engine/index.js';
import { buildSyncTasks, closestNames } from '../engine/index.js';
import type { Settings } from '../settings/index.js';
import { checkBeforeRender, renderForCommand } from './application-render.js';
import type { CommandIo } from './command-io.js';
import { formatPlanJson } from './format-plan-json.js';
import { formatPlanText } from './format-plan-text.js';
import { loadManifestsCached } from './manifest-parse-cache.js';
import { planLoaded } from './plan-loaded.js';
import { rejectPathAndApp } from './target-or-app.js';

export interface PlanOptions {
  output: 'text' | 'json';
  /** The Application's destination namespace, given to objects without one ('' = none). */
  namespace: string;
  /** Plan this Application of wavesync.yaml instead of a path. */
  app?: string;
  /** wavesync.yaml (default: $WAVESYNC_CONFIG). */
  config?: string;
  /** With `--app`: branch, tag or SHA instead of the Application's targetRevision. */
  revision?: string;
}

/** The plan of an Application, and what it was rendered as. */
interface ApplicationPlan extends BuildSyncTasksResult {
  application: string;
  environment: string | undefined;
  namespace: string;
  /** Resolved revision: git SHA, or the content hash of a local folder. */
  revision: string;
  /** For a git source: the branch, tag or SHA the revision was resolved from. */
  ref?: string;
}

/**
 * The plan of the Application `name` from the wavesync.yaml at `options.config` (else $WAVESYNC_CONFIG), rendered
 * as the worker renders it (src/main/start-worker.ts), with its destination namespace and sync options.
 * @throws BotError invalid_config (no wavesync.yaml named, or an invalid one), application_not_found (with "Did
 * you mean"), and the renderer's errors (invalid_manifest with file and line, a missing helm/kustomize binary,
 * git failures).
 */
async function planApplication(
  name: string,
  options: Pick<PlanOptions, 'config' | 'revision'>,
): Promise<ApplicationPlan> {
  const [{ app, rendered }, { applicationWarnings, environmentOf }] = await Promise.all([
    renderApplicationNamed(name, options),
    import('../applications/index.js'),
  ]);
  const namespace = app.destination.namespace ?? 'default';
  const plan = buildSyncTasks({
    targets: rendered.targets,
    live: [],
    namespace,
    revision: rendered.revision,
    startedAt: new Date().toISOString(),
    operation: { prune: false, dryRun: true, syncOptions: app.syncPolicy?.syncOptions ?? [] },
    lintReferences: true,
  });
  return {
    application: app.name,
    environment: environmentOf(app),
    namespace,
    revision: rendered.revision,
    ...refOf(app, options.revision),
    tasks: plan.tasks,
    warnings: [...applicationWarnings(app), ...rendered.warnings, ...plan.warnings],
  };
}

/**
 * `{ ref }`: the symbolic ref a git source's revision is resolved from (`--revision`, else `targetRevision`, else
 * HEAD), or the version range a chart's was chosen by, shown by displayRevision as `3f9c2e1 (main)`, `17.3.2 (17.x)`;
 * `{}` for a local folder, which has no refs. A multi-source Application's is each source's, joined by `;` like its
 * revision (a local one's empty).
 */
export function refOf(app: Application, revision: string | undefined): { ref?: string } {
  if (hasOnlyLocalSources(app)) return {};
  const requested = revision === undefined ? [] : app.sources ? splitRevisions(revision) : [revision];
  const refs = sourcesOf(app).map((source, i) => {
    if (source.repoURL === '') return '';
    return requested[i] || source.targetRevision || (source.chart ? '' : 'HEAD');
  });
  return { ref: joinRevisions(refs) };
}

/** An Application of wavesync.yaml, with what it was loaded from. */
export interface LoadedApplication {
  app: Application;
  settings: Settings;
  registry: ApplicationRegistry;
  renderer: ApplicationRenderer;
  /** The git cache the Application renders through (also what fetches a git source of health scripts). */
  git: GitRepositoryCache;
}

/**
 * The Application `name` of the wavesync.yaml at `options.config` (else $WAVESYNC_CONFIG): what `--app` means in
 * every command. @throws BotError invalid_config (no wavesync.yaml named, or an invalid one),
 * application_not_found (with "Did you mean"), invalid_command (`--revision` for a local folder, which has none).
 */
export async function loadApplication(
  name: string,
  options: { config?: string; revision?: string },
): Promise<LoadedApplication> {
  // Loaded on use: git, Helm and client-node cost a second of start-up that `plan <path>` and --help never need.
  const [{ applicationsFromSettings }, { loadConfig, processEnvironment }, kube, { loadSettings }] =
    await Promise.all([
      import('../applications/index.js'),
      import('../config.js'),
      import('../kube/cluster-applications.js'),
      import('../settings/index.js'),
    ]);
  const config = loadConfig();
  const file = options.config ?? config.configFile;
  if (file === undefined) {
    throw new BotError('invalid_config', '--app needs wavesync.yaml', {
      fix: 'pass --config <file> or set WAVESYNC_CONFIG (see examples/wavesync.yaml)',
    });
  }
  const settings = await loadSettings(file);
  const { registry, renderer, git } = await applicationsFromSettings(settings, {
    env: processEnvironment(),
    clusterApplications: kube.clusterApplicationsLister(config.kubeconfig),
  });
  const app = registry.find(name);
  if (app === undefined) throw unknownApplication(name, registry.names(), file);
  await checkBeforeRender(app, settings);
  if (options.revision !== undefined && hasOnlyLocalSources(app)) {
    throw new BotError(
      'invalid_command',
      `--revision ${options.revision}: ${name} has a local folder as its source, which has no revisions (${app.origin})`,
      { fix: "drop --revision: the folder's content is what syncs" },
    );
  }
  return { app, settings, registry, renderer, git };
}

/** How many known Applications an unknown name's error lists before "… and N more". */
const LISTED_APPLICATIONS = 10;

/**
 * `no Application named "nope" (wavesync.yaml): did you mean rails? (known: guestbook, rails, …)`, or with no
 * close name the known ones (sorted, at most LISTED_APPLICATIONS), or how to add one when there are none.
 */
function unknownApplication(name: string, known: readonly string[], file: string): BotError {
  const sorted = [...known].sort();
  const listed = sorted.slice(0, LISTED_APPLICATIONS).join(', ');
  const more = sorted.length > LISTED_APPLICATIONS ? ` and ${sorted.length - LISTED_APPLICATIONS} more` : '';
  const closest = closestNames(name, sorted, 1)[0];
  let fix: string;
  if (sorted.length === 0)
    fix = `it has no Applications; add one under applications: (see examples/wavesync.yaml)`;
  else if (closest !== undefined) fix = `did you mean ${closest}? (known: ${listed}${more})`;
  else fix = `use one of ${listed}${more}`;
  return new BotError('application_not_found', `no Application named "${name}" (${file})`, { fix });
}

/**
 * The Application `name` (loadApplication) rendered as the worker renders it, at `options.revision` or its
 * targetRevision. @throws what loadApplication and the renderer throw.
 */
export async function renderApplicationNamed(
  name: string,
  options: { config?: string; revision?: string },
): Promise<{ app: Application; rendered: RenderedApplication; settings: Settings }> {
  const { app, settings, renderer } = await loadApplication(name, options);
  const rendered = await renderForCommand(
    renderer,
    app,
    options.revision === undefined ? {} : { revision: options.revision },
  );
  return { app, rendered, settings };
}

/** `guestbook → staging · namespace guestbook · revision 1a2b3c4d5e6f` above the text plan. */
function applicationHeader(plan: ApplicationPlan): string {
  const environment = plan.environment ? ` → ${plan.environment}` : '';
  return `${plan.application}${environment} · namespace ${plan.namespace} · revision ${displayRevision(plan.revision, plan.ref)}\n\n`;
}

export async function printPlan(
  target: string | undefined,
  options: PlanOptions,
  io: CommandIo,
): Promise<void> {
  rejectPathAndApp(target, options.app);
  if (options.app !== undefined) {
    const plan = await planApplication(options.app, options);
    if (options.output === 'json') {
      // JSON keeps the revision in full (README "Revisions"); `ref` is what a git revision was resolved from.
      const { application, environment, namespace, revision, ref } = plan;
      const document = JSON.parse(formatPlanJson(plan)) as object;
      const app = {
        name: application,
        environment,
        namespace,
        revision,
        ...(ref === undefined ? {} : { ref }),
      };
      const withApp = { application: app, ...document };
      io.stdout(`${JSON.stringify(withApp, null, 2)}\n`);
    } else {
      io.stdout(applicationHeader(plan) + formatPlanText(plan));
    }
    return;
  }
  if (target === undefined) {
    throw new BotError(
      'invalid_command',
      'name what to plan: a manifest path, or --app <name> with wavesync.yaml',
    );
  }
  if (options.revision !== undefined) {
    throw new BotError('invalid_command', '--revision needs --app (a path is planned as it is on disk)');
  }
  const plan = await planManifests(target, options);
  io.stdout(options.output === 'json' ? formatPlanJson(plan) : formatPlanText(plan));
}

/** The plan of the manifests at `target`: load, then order as Argo CD would with nothing live. */
async function planManifests(
  target: string,
  options: Pick<PlanOptions, 'namespace'>,
): Promise<BuildSyncTasksResult> {
  return planLoaded(await loadManifestsCached(target), options.namespace, [], { lintReferences: true });
}
