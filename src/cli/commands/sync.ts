/**
 * `wavesync sync <dir|file> [--kubeconfig F] [--context C] [--namespace NS] [--prune] [--dry-run]
 * [--output text|json] [--app NAME] [--sync-option OPT]... [--hook-start-grace SECONDS] [--confirm-prune]
 * [--timeout SECONDS] [--health-timeout SECONDS | --no-wait-health]` — run
 * one Argo CD-faithful sync from a terminal with the worker's engine.
 * Text: progress per wave and hook as it happens. JSON: the final OperationState (phase, message, startedAt,
 * finishedAt, revision, resources[] with their times) plus the app health observed after the sync. After the
 * operation it waits for app health (`--health-timeout`, default 300 s) as `argocd app sync` does; with
 * `--no-wait-health` the JSON is printed the moment the operation completes (health read once, not awaited).
 * Exit code 0 only when the operation Succeeded and, when health was awaited, the app is Healthy (or Suspended);
 * Ctrl-C terminates the operation (running hooks are stopped).
 */
import { type Command, Option } from 'commander';
import { BotError, type SyncEvent } from '../../domain/index.js';
import { formatSyncEventText } from '../format-sync-event-text.js';
import type { SyncCommandOptions } from '../sync-manifests.js';
import type { CommandIo } from './plan.js';

/**
 * stdout that survives its reader going away (`wavesync sync … | head -2`): after EPIPE (or any write error) it stops
 * printing, and the operation goes on to its end — output failing must never leave a sync half-applied.
 */
function surviving(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', () => {
    closed = true;
  });
  return (text) => {
    if (closed || stream.destroyed || !stream.writable) return;
    stream.write(text);
  };
}

let stdout: ((text: string) => void) | undefined;

const processIo: CommandIo = {
  stdout: (text) => {
    stdout ??= surviving(process.stdout);
    stdout(text);
  },
  stderr: (text) => process.stderr.write(text),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

export function registerSyncCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('sync')
    .description(
      'sync manifests to a cluster as Argo CD would: phases, waves, hooks, health-gated waves, prune',
    )
    .argument('<path>', 'a manifest file, a directory of manifests, or a Kustomize directory')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context to use')
    .option('-n, --namespace <namespace>', "destination namespace (default: the context's namespace)")
    .option('--app <name>', 'Application name, the value of the tracking label (default: the path name)')
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
    .action(async (target: string, options: SyncCommandOptions) => {
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      try {
        const { syncFailureOf, syncManifests, syncResultJson } = await import('../sync-manifests.js');
        const early = options.output === 'json' && options.waitHealth === false;
        const print = (event: SyncEvent) => {
          // Not waiting for health: the JSON OperationState the moment the operation completes.
          if (early && event.type === 'OperationCompleted') io.stdout(syncResultJson(event.state));
          const line = options.output === 'text' ? formatSyncEventText(event) : undefined;
          if (line !== undefined) io.stdout(`${line}\n`);
        };
        const state = await syncManifests(target, options, print, abort.signal);
        if (options.output === 'json' && !early) io.stdout(syncResultJson(state));
        const failure = syncFailureOf(state, options);
        if (failure !== undefined && state.phase === 'Succeeded') io.stderr(`error: ${failure}\n`);
        io.setExitCode(failure === undefined ? 0 : 1);
      } catch (error) {
        if (!(error instanceof BotError)) throw error;
        io.stderr(`error: ${error.message}\n`);
        io.setExitCode(1);
      } finally {
        process.off('SIGINT', onSignal);
      }
    });
}
