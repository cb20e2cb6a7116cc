/**
 * `wavesync plan <dir|file> [--output text|json] [--namespace NS]` — print the sync plan of some manifests, in
 * Argo CD's execution order, with no cluster, Redis or Slack. The plan assumes nothing is live (no prune tasks);
 * generateName hooks are named from the manifests' content hash and the current time, as a real sync would name
 * them from its revision and start time. Bad input → exit code 1, the error (file:line: problem) on stderr,
 * nothing on stdout.
 */
import { type Command, Option } from 'commander';
import { BotError } from '../../domain/index.js';
import { type BuildSyncTasksResult, buildSyncTasks } from '../../engine/index.js';
import { contentRevisionOf, loadManifests } from '../../manifests/index.js';
import { formatPlanJson } from '../format-plan-json.js';
import { formatPlanText } from '../format-plan-text.js';

export interface PlanOptions {
  output: 'text' | 'json';
  /** The Application's destination namespace, given to objects without one ('' = none). */
  namespace: string;
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
  });
  return { tasks: plan.tasks, warnings: [...loaded.warnings, ...plan.warnings] };
}

export function registerPlanCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('plan')
    .description(
      'print the sync plan of manifests: every task in execution order (phase → wave → kind → name)',
    )
    .argument('<path>', 'a manifest file, a directory of manifests, or a Kustomize directory')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .option(
      '-n, --namespace <namespace>',
      "destination namespace for objects without one (the Application's)",
      '',
    )
    .action(async (target: string, options: PlanOptions) => {
      try {
        const plan = await planManifests(target, options);
        io.stdout(options.output === 'json' ? formatPlanJson(plan) : formatPlanText(plan));
      } catch (error) {
        if (!(error instanceof BotError)) throw error;
        io.stderr(`error: ${error.message}\n`);
        io.setExitCode(1);
      }
    });
}
