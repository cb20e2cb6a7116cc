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
import { type CommandIo, processIo, runAction } from '../command-io.js';
import type { PlanOptions } from '../plan-application.js';

export type { CommandIo } from '../command-io.js';

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
    .action((target: string | undefined, options: PlanOptions) =>
      runAction(io, async () => {
        const { printPlan } = await import('../plan-application.js');
        await printPlan(target, options, io);
      }),
    );
}
