/**
 * `wavesync sync <dir|file> [--kubeconfig F] [--context C] [--namespace NS] [--prune] [--dry-run]
 * [--output text|json] [--tracking-label VALUE] [--tracking-method METHOD] [--sync-option OPT]... [--hook-start-grace SECONDS] [--confirm-prune]
 * [--timeout SECONDS] [--health-timeout SECONDS | --no-wait-health]` — run
 * one Argo CD-faithful sync from a terminal with the worker's engine. `wavesync sync --app NAME [--config F]
 * [--revision REV]` syncs an Application of wavesync.yaml as `/sync NAME` would, minus Slack.
 * Text: progress per wave and hook as it happens. JSON: the final OperationState (phase, message, startedAt,
 * finishedAt, revision, resources[] with their times) plus the app health observed after the sync. After the
 * operation it waits for app health (`--health-timeout`, default 300 s) as `argocd app sync` does; with
 * `--no-wait-health` the JSON is printed the moment the operation completes (health read once, not awaited).
 * Exit code 0 only when the operation Succeeded and, when health was awaited, the app is Healthy (or Suspended);
 * Ctrl-C terminates the operation (running hooks are stopped).
 */
import { type Command, Option } from 'commander';
import type { SyncEvent } from '../../domain/index.js';
import type { PlanWarning } from '../../engine/index.js';
import { type CommandIo, errorReport, processIo, warningLine } from '../command-io.js';
import type { SyncCommandOptions } from '../sync-manifests.js';

export function registerSyncCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('sync')
    .description(
      'sync manifests to a cluster as Argo CD would: phases, waves, hooks, health-gated waves, prune',
    )
    .argument('[path]', 'a manifest file, a directory of manifests, or a Kustomize directory')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context to use')
    .option('-n, --namespace <namespace>', "destination namespace (default: the context's namespace)")
    .option(
      '--app <name>',
      'sync this Application of wavesync.yaml as /sync would, minus Slack (instead of a path)',
    )
    .option(
      '--config <file>',
      'wavesync.yaml for --app; for a path, its health: scripts apply (default: $WAVESYNC_CONFIG)',
    )
    .option(
      '--resource-customizations <dir>',
      "for a path: Argo CD's resource_customizations folder, its built-in health scripts (<group>/<Kind>/health.lua)",
    )
    .option('--revision <rev>', "with --app: branch, tag or SHA instead of the Application's targetRevision")
    .option(
      '--tracking-label <value>',
      'for a path: the Application name its objects are tracked by (default: the path name)',
    )
    .addOption(
      new Option(
        '--tracking-method <method>',
        "for a path: argocd-cm's application.resourceTrackingMethod (default annotation)",
      ).choices(['annotation', 'label', 'annotation+label']),
    )
    .option('--prune', 'delete tracked resources that are no longer in the manifests', false)
    .option('--dry-run', 'validate and server-side dry-run every task, change nothing', false)
    .option('--confirm-prune', 'confirm pruning of Prune=confirm resources (else their wave waits)', false)
    .option(
      '--timeout <seconds>',
      'terminate the operation after this long (default 1800), naming what it waited for',
    )
    .option(
      '--sync-option <option>',
      'app-level sync option, e.g. CreateNamespace=true (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--hook-start-grace <seconds>',
      'fail a hook, or a resource a wave waits on, whose Pod cannot start for a missing object after this long (default 60)',
    )
    .option(
      '--health-timeout <seconds>',
      'after the operation, wait this long for the app to be Healthy (default 300)',
    )
    .option(
      '--no-wait-health',
      'do not wait for app health: print the result as soon as the operation completes',
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (target: string | undefined, options: SyncCommandOptions) => {
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      try {
        const [{ formatSyncEventText }, { syncFailureOf, syncManifests, syncResultJson }] = await Promise.all(
          [import('../format-sync-event-text.js'), import('../sync-manifests.js')],
        );
        const early = options.output === 'json' && options.waitHealth === false;
        let ref: string | undefined;
        const print = (event: SyncEvent) => {
          if (event.type === 'OperationStarted') ref = event.ref;
          // Not waiting for health: the JSON OperationState the moment the operation completes.
          if (early && event.type === 'OperationCompleted') io.stdout(syncResultJson(event.state, ref));
          const line = options.output === 'text' ? formatSyncEventText(event) : undefined;
          if (line !== undefined) io.stdout(`${line}\n`);
        };
        const warn = (warning: PlanWarning) => io.stderr(warningLine(warning));
        const state = await syncManifests(target, options, print, abort.signal, warn);
        if (options.output === 'json' && !early) io.stdout(syncResultJson(state, ref));
        const failure = syncFailureOf(state, options);
        if (failure !== undefined && state.phase === 'Succeeded') io.stderr(`error: ${failure}\n`);
        io.setExitCode(failure === undefined ? 0 : 1);
      } catch (error) {
        const report = errorReport(error);
        io.stderr(report.text);
        io.setExitCode(report.exitCode);
      } finally {
        process.off('SIGINT', onSignal);
      }
    });
}
