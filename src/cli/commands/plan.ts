/**
 * `wavesync plan <dir|file> [--output text|json] [--namespace NS]` — print the sync plan of some manifests, in
 * Argo CD's execution order, with no cluster, Redis or Slack. `wavesync plan --app NAME [--config F]
 * [--revision REV]` plans an Application of wavesync.yaml instead: its source rendered exactly as the worker
 * renders it for `/sync NAME` (git checkout at the revision, Helm/Kustomize, directory options), with its
 * destination namespace and sync options. The plan assumes nothing is live (no prune tasks); generateName hooks
 * are named from the revision and the current time, as a real sync would name them from its start time. Bad
 * input → exit code 1, the error (file:line: problem, or the unknown Application with "Did you mean") on stderr,
 * nothing on stdout.
 */
import { type Command, Option } from 'commander';
import type { RenderedApplication } from '../../apps/index.js';
import { type Application, BotError } from '../../domain/index.js';
import { type BuildSyncTasksResult, buildSyncTasks } from '../../engine/index.js';
import { contentRevisionOf, loadManifests } from '../../manifests/index.js';
import type { Settings } from '../../settings/index.js';
import { formatPlanJson } from '../format-plan-json.js';
import { formatPlanText } from '../format-plan-text.js';

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
export interface ApplicationPlan extends BuildSyncTasksResult {
  application: string;
  environment: string | undefined;
  namespace: string;
  /** Resolved revision: git SHA, or the content hash of a local folder. */
  revision: string;
}

/**
 * The plan of the Application `name` from the wavesync.yaml at `options.config` (else $WAVESYNC_CONFIG), rendered
 * as the worker renders it (src/main/start-worker.ts), with its destination namespace and sync options.
 * @throws BotError invalid_config (no wavesync.yaml named, or an invalid one), application_not_found (with "Did
 * you mean"), and the renderer's errors (invalid_manifest with file and line, a missing helm/kustomize binary,
 * git failures).
 */
export async function planApplication(
  name: string,
  options: Pick<PlanOptions, 'config' | 'revision'>,
): Promise<ApplicationPlan> {
  const [{ app, rendered }, { environmentOf }] = await Promise.all([
    renderApplicationNamed(name, options),
    import('../../apps/index.js'),
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
    tasks: plan.tasks,
    warnings: [...rendered.warnings, ...plan.warnings],
  };
}

/**
 * The Application `name` of the wavesync.yaml at `options.config` (else $WAVESYNC_CONFIG) rendered as the worker
 * renders it, with the settings it came from. Errors as planApplication.
 */
export async function renderApplicationNamed(
  name: string,
  options: Pick<PlanOptions, 'config' | 'revision'>,
): Promise<{ app: Application; rendered: RenderedApplication; settings: Settings }> {
  // Loaded on use: git, Helm and client-node cost a second of start-up that `plan <path>` and --help never need.
  const [{ applicationsFromSettings }, { loadConfig, processEnvironment }, kube, { loadSettings }] =
    await Promise.all([
      import('../../apps/index.js'),
      import('../../config.js'),
      import('../../kube/cluster-applications.js'),
      import('../../settings/index.js'),
    ]);
  const file = options.config ?? loadConfig().configFile;
  if (file === undefined) {
    throw new BotError(
      'invalid_config',
      '--app needs wavesync.yaml: pass --config <file> or set WAVESYNC_CONFIG (see examples/wavesync.yaml)',
    );
  }
  const settings = await loadSettings(file);
  const config = loadConfig();
  const { registry, renderer } = await applicationsFromSettings(settings, {
    env: processEnvironment(),
    clusterApplications: kube.clusterApplicationsLister(config.kubeconfig),
  });
  const app = registry.get(name);
  const rendered = await renderer.renderApplication(
    app,
    options.revision === undefined ? {} : { revision: options.revision },
  );
  return { app, rendered, settings };
}

/** `guestbook → staging · namespace guestbook · revision 1a2b3c4d5e6f` above the text plan. */
function applicationHeader(plan: ApplicationPlan): string {
  const environment = plan.environment ? ` → ${plan.environment}` : '';
  return `${plan.application}${environment} · namespace ${plan.namespace} · revision ${plan.revision.slice(0, 12)}\n\n`;
}

async function printPlan(target: string | undefined, options: PlanOptions, io: CommandIo): Promise<void> {
  if (options.app !== undefined) {
    if (target !== undefined) {
      throw new BotError(
        'invalid_command',
        `give a path or --app, not both (got ${target} and --app ${options.app})`,
      );
    }
    const plan = await planApplication(options.app, options);
    if (options.output === 'json') {
      const { application, environment, namespace, revision } = plan;
      const document = JSON.parse(formatPlanJson(plan)) as object;
      const withApp = { application: { name: application, environment, namespace, revision }, ...document };
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

/** Where the command writes; tests pass their own. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  setExitCode(code: number): void;
}

const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/** The plan of the manifests at `target`: load, then order as Argo CD would with nothing live. */
export async function planManifests(
  target: string,
  options: Pick<PlanOptions, 'namespace'>,
): Promise<BuildSyncTasksResult> {
  const loaded = await loadManifests(target);
  const plan = buildSyncTasks({
    targets: loaded.objects,
    live: [],
    namespace: options.namespace,
    revision: contentRevisionOf(loaded.objects),
    startedAt: new Date().toISOString(),
    operation: { prune: false, dryRun: true, syncOptions: [] },
    lintReferences: true,
  });
  return { tasks: plan.tasks, warnings: [...loaded.warnings, ...plan.warnings] };
}

export function registerPlanCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('plan')
    .description(
      'print the sync plan of manifests: every task in execution order (phase → wave → kind → name)',
    )
    .argument('[path]', 'a manifest file, a directory of manifests, or a Kustomize directory')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .option(
      '-n, --namespace <namespace>',
      "destination namespace for objects without one (the Application's)",
      '',
    )
    .option(
      '--app <name>',
      'plan this Application of wavesync.yaml as /sync would render it (instead of a path)',
    )
    .option('--config <file>', 'wavesync.yaml for --app (default: $WAVESYNC_CONFIG)')
    .option('--revision <rev>', "with --app: branch, tag or SHA instead of the Application's targetRevision")
    .action(async (target: string | undefined, options: PlanOptions) => {
      try {
        await printPlan(target, options, io);
      } catch (error) {
        if (!(error instanceof BotError)) throw error;
        io.stderr(`error: ${error.message}\n`);
        io.setExitCode(1);
      }
    });
}
