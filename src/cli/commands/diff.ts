/**
 * `wavesync diff <path|--app NAME> [--kubeconfig F] [--context C] [--namespace NS] [--prune]
 * [--sync-option OPT]... [--config F] [--revision REV] [--output text|json] [--color auto|always|never]` — what a
 * sync would change, against the live cluster: every resource's live object compared with the server-side dry
 * run of its apply (src/engine/diff), Secret values masked, the Application's ignoreDifferences honoured.
 * Exit code, as `diff` and `argocd app diff`: 0 no changes, 1 changes, 2 error (the error on stderr).
 */
import { type Command, Option } from 'commander';
import type { DiffCommandOptions } from '../diff-manifests.js';
import type { CommandIo } from './plan.js';

const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/** Colour for `auto`: a terminal on stdout and no NO_COLOR. */
function useColor(mode: DiffCommandOptions['color']): boolean {
  if (mode !== 'auto') return mode === 'always';
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}

export function registerDiffCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('diff')
    .description(
      'show what a sync would change in the cluster (server-side dry run vs live; exit 0 none, 1 changes, 2 error)',
    )
    .argument('[path]', 'a manifest file, a directory of manifests, or a Kustomize directory')
    .option(
      '--app <name>',
      'diff this Application of wavesync.yaml as /sync would render it (instead of a path)',
    )
    .option('--config <file>', 'wavesync.yaml for --app (default: $WAVESYNC_CONFIG)')
    .option('--revision <rev>', "with --app: branch, tag or SHA instead of the Application's targetRevision")
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context to use')
    .option('-n, --namespace <namespace>', "destination namespace (default: the context's namespace)")
    .option('--prune', 'show tracked resources no longer in the manifests as pruned', false)
    .option(
      '--sync-option <option>',
      'app-level sync option, e.g. RespectIgnoreDifferences=true (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(
      new Option('--color <when>', 'colour the text diff')
        .choices(['auto', 'always', 'never'])
        .default('auto'),
    )
    .action(async (target: string | undefined, options: DiffCommandOptions) => {
      try {
        const { diffForCommand } = await import('../diff-manifests.js');
        const { formatDiffText } = await import('../format-diff-text.js');
        const { hasChanges } = await import('../../engine/index.js');
        const diff = await diffForCommand(target, options);
        io.stdout(
          options.output === 'json'
            ? `${JSON.stringify(diff, null, 2)}\n`
            : formatDiffText(diff, { color: useColor(options.color) }),
        );
        io.setExitCode(hasChanges(diff) ? 1 : 0);
      } catch (error) {
        const { userFacingMessage } = await import('../user-facing-error.js');
        // Exit code 2 for every failure (1 means "changes"); a bug keeps its stack trace.
        const message = userFacingMessage(error) ?? (error instanceof Error ? error.stack : String(error));
        io.stderr(`error: ${message}\n`);
        io.setExitCode(2);
      }
    });
}
