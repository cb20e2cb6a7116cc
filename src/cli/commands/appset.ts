/**
 * `wavesync appset <file> [--output yaml|json] [--config wavesync.yaml]` — print the Applications the
 * ApplicationSets of a file generate, as Argo CD would create them (`argocd appset generate` needs a server; this
 * does not). Clusters for cluster generators are wavesync.yaml's `clusters:` (with their labels); git generators
 * read the repositories through the git cache (`defaults.gitCacheDir`, `gitCredentials`). A generator wavesync
 * cannot run (pullRequest, scmProvider, clusterDecisionResource, plugin) is refused on stderr naming it and saying
 * its Applications are missing: the others are printed and the exit code is 2. Bad input → exit 2, one error line.
 * Each generated Application gets the field warnings a written one gets (applicationWarnings), on stderr with its
 * name and ApplicationSet, so stdout stays valid YAML/JSON; a refused field fails the generation (exit 2).
 */
import { type Command, Option } from 'commander';
import { type CommandIo, ExitCode, processIo, runAction, warningLine } from '../command-io.js';

interface AppsetOptions {
  output: 'yaml' | 'json';
  config?: string;
}

export function registerAppsetCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('appset')
    .description('print the Applications an ApplicationSet generates (no server needed)')
    .argument('<file>', 'a file holding one or more ApplicationSets')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .option('--config <file>', 'wavesync.yaml for clusters and git settings (default: $WAVESYNC_CONFIG)')
    .action((file: string, options: AppsetOptions) =>
      runAction(io, async () => {
        await printApplicationSet(file, options, io);
      }),
    );
}

async function printApplicationSet(file: string, options: AppsetOptions, io: CommandIo): Promise<void> {
  const [
    { applicationWarnings, describeRollout, generateApplicationSetFile },
    { loadConfig, processEnvironment },
    { loadSettings, parseSettings },
    { yamlDocuments },
  ] = await Promise.all([
    import('../../applications/index.js'),
    import('../../config.js'),
    import('../../settings/index.js'),
    import('../yaml-documents.js'),
  ]);
  const configFile = options.config ?? loadConfig().configFile;
  const settings =
    configFile === undefined
      ? parseSettings('{}', `${process.cwd()}/wavesync.yaml`)
      : await loadSettings(configFile);
  const generated = await generateApplicationSetFile(file, settings, processEnvironment());
  const objects = generated.flatMap((g) => g.objects);
  if (options.output === 'json') io.stdout(`${JSON.stringify(objects, null, 2)}\n`);
  else io.stdout(yamlDocuments(objects));
  for (const g of generated) {
    // Each generated Application is checked as a written one is (`wavesync plan --app`, the registry): a field
    // wavesync treats differently, a key that is no field of Argo CD's Application, an unknown sync option…
    // A refused field already failed the generation (one error line, exit 2).
    for (const app of g.applications) for (const w of applicationWarnings(app)) io.stderr(warningLine(w));
    if (g.rollout) for (const line of describeRollout(g.applicationSet, g.rollout)) io.stderr(`${line}\n`);
    for (const note of g.notes) io.stderr(`warning: ${note} (ApplicationSet ${g.applicationSet})\n`);
    for (const refused of g.refused)
      io.stderr(`error: ${refused.message} (ApplicationSet ${g.applicationSet})\n`);
  }
  if (generated.some((g) => g.refused.length > 0)) io.setExitCode(ExitCode.usage);
}
