/**
 * Config Management Plugins as Argo CD's cmp-server runs them (cmpserver/plugin/plugin.go): the plugin declared in
 * wavesync.yaml (`plugins:`, the fields of Argo CD's `plugin.yaml`) named by `source.plugin.name` (`<name>` or
 * `<name>-<version>`) — or, without a name, the first whose `discover` matches the source folder — runs `init`, then
 * `generate`, in the source folder (a copy: a plugin may write), each as `command[0] command[1..] args…` without a
 * shell and within its time limit. The environment is the build environment (`ARGOCD_APP_*`), the Application's
 * `plugin.env` as `ARGOCD_ENV_<name>`, its parameters as `ARGOCD_APP_PARAMETERS` (JSON) and `PARAM_<NAME>` (arrays
 * `PARAM_<NAME>_<i>`, maps `PARAM_<NAME>_<KEY>`), plus PATH and HOME. `generate` writes the manifests (YAML or JSON)
 * on its standard output.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Application, ApplicationSourcePlugin } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import type { PluginSettings } from '../../settings/index.js';
import { matchArgoGlob } from './argo-glob.js';
import type { BuildEnv } from './build-env.js';
import { runTool } from './run-tool.js';
import { spawnWithTimeout } from './spawn-with-timeout.js';

/** The name an Application uses for `plugin` (Argo CD: `<name>-<version>` when it has a version). */
export function pluginNameOf(plugin: Pick<PluginSettings, 'name' | 'version'>): string {
  return plugin.version ? `${plugin.name}-${plugin.version}` : plugin.name;
}

/**
 * The `plugin.name`s of `app`'s sources that `plugins` (wavesync.yaml) does not declare, with the source's key path
 * (`spec.source.plugin.name`, `spec.sources[1].plugin.name`): such a source cannot render.
 */
export function undeclaredPlugins(
  app: Pick<Application, 'source' | 'sources'>,
  plugins: readonly Pick<PluginSettings, 'name' | 'version'>[],
): { path: string; name: string }[] {
  const declared = new Set(plugins.map(pluginNameOf));
  const sources = app.sources ?? [app.source];
  return sources.flatMap((source, i) => {
    const name = source.plugin?.name;
    if (!name || declared.has(name)) return [];
    return [{ path: app.sources ? `spec.sources[${i}].plugin.name` : 'spec.source.plugin.name', name }];
  });
}

export interface RenderPluginInput {
  dir: string;
  root: string;
  source: ApplicationSourcePlugin;
  plugins: readonly PluginSettings[];
  env: BuildEnv;
  /** This process's environment: only PATH and HOME reach the plugin. */
  processEnv: Readonly<Record<string, string | undefined>>;
  /** Default time limit of one command, in ms. */
  timeoutMs: number;
}

/**
 * The plugin's output (manifests as YAML or JSON).
 * @throws BotError('render_failed') naming a plugin that is not declared (or that no plugin discovers the folder),
 *   or the command that failed or timed out with its standard error.
 */
export async function renderPlugin(input: RenderPluginInput): Promise<string> {
  const plugin = await choosePlugin(input);
  const timeoutMs = plugin.timeoutSeconds ? plugin.timeoutSeconds * 1000 : input.timeoutMs;
  const env = pluginEnv(input);
  const scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-plugin-'));
  try {
    await cp(input.root, scratch, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
    const cwd = path.join(scratch, path.relative(input.root, input.dir));
    const run = (step: 'init' | 'generate', command: { command: string[]; args: string[] }) => {
      const [bin, ...rest] = command.command;
      return runTool(bin ?? '', [...rest, ...command.args], {
        cwd,
        env,
        timeoutMs,
        installHint: `the ${step} command of plugin ${pluginNameOf(plugin)} (wavesync.yaml plugins:) is not installed`,
      }).catch((error: Error) => {
        const detail = error instanceof BotError ? error.detail : undefined;
        throw new BotError('render_failed', `plugin ${pluginNameOf(plugin)} ${step}: ${error.message}`, {
          cause: error,
          ...(detail === undefined ? {} : { detail }),
        });
      });
    };
    if (plugin.init) await run('init', plugin.init);
    return await run('generate', plugin.generate);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function choosePlugin(input: RenderPluginInput): Promise<PluginSettings> {
  const declared = input.plugins.map(pluginNameOf);
  const { name } = input.source;
  if (name) {
    const plugin = input.plugins.find((p) => pluginNameOf(p) === name);
    if (plugin) return plugin;
    throw new BotError(
      'render_failed',
      `spec.source.plugin.name ${name}: no such plugin in wavesync.yaml plugins: ` +
        `(declared: ${declared.join(', ') || 'none'}); declare it there as Argo CD's plugin.yaml declares it`,
    );
  }
  for (const plugin of input.plugins) if (await discovers(plugin, input)) return plugin;
  throw new BotError(
    'render_failed',
    `spec.source.plugin has no name and no plugin of wavesync.yaml discovers ${path.relative(input.root, input.dir) || '.'} ` +
      `(declared: ${declared.join(', ') || 'none'})`,
  );
}

/** Argo CD discovery: `fileName` or `find.glob` matches a file of the folder, or `find.command` prints something. */
async function discovers(plugin: PluginSettings, input: RenderPluginInput): Promise<boolean> {
  const discover = plugin.discover;
  if (!discover) return false;
  const glob = discover.fileName ?? discover.find?.glob;
  if (glob) {
    const files = await listFiles(input.dir);
    return files.some((f) => matchArgoGlob(glob.replace(/^\.\//, ''), f));
  }
  const find = discover.find?.command;
  if (!find) return false;
  const [bin, ...rest] = find;
  const outcome = await spawnWithTimeout(bin ?? '', [...rest, ...(discover.find?.args ?? [])], {
    cwd: input.dir,
    env: pluginEnv(input),
    timeoutMs: input.timeoutMs,
  });
  return outcome.kind === 'ok' && outcome.stdout.trim() !== '';
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() && !e.name.startsWith('.')
        ? listFiles(dir, path.posix.join(prefix, e.name))
        : [path.posix.join(prefix, e.name)],
    ),
  );
  return nested.flat();
}

/** `PARAM_<NAME>`: upper case, every character but letters, digits and `_` as `_` (Argo CD). */
const paramVar = (name: string) => `PARAM_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;

function pluginEnv(input: RenderPluginInput): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...(input.processEnv.PATH ? { PATH: input.processEnv.PATH } : {}),
    ...(input.processEnv.HOME ? { HOME: input.processEnv.HOME } : {}),
    ...input.env,
  };
  for (const { name, value } of input.source.env ?? []) env[`ARGOCD_ENV_${name}`] = value;
  const parameters = input.source.parameters ?? [];
  if (parameters.length > 0) env.ARGOCD_APP_PARAMETERS = JSON.stringify(parameters);
  for (const p of parameters) {
    const base = paramVar(p.name);
    if (p.string !== undefined) env[base] = p.string;
    p.array?.forEach((v, i) => {
      env[`${base}_${i}`] = v;
    });
    for (const [k, v] of Object.entries(p.map ?? {}))
      env[`${base}_${paramVar(k).slice('PARAM_'.length)}`] = v;
  }
  return env;
}
