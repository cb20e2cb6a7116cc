/**
 * `wavesync action <file> <action>` / `wavesync action <file> --list`: what a resource action would do to the
 * object in a file (the objects it would patch or create, printed whole), or what discovery offers for it — so a
 * team can test its own `discovery.lua`/`action.lua` (`--resource-customizations DIR`, a folder laid out as Argo
 * CD's `resource_customizations`; `--config wavesync.yaml` adds its argocdCm overrides and built-in folder). Nothing
 * is applied anywhere. The action must be offered and enabled, as it must be to run from Slack.
 */
import { readFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { parseManifests } from '../applications/index.js';
import { BotError } from '../domain/index.js';
import { builtInScriptsDir } from '../health-scripts/index.js';
import {
  ActionResultError,
  ActionScriptError,
  createResourceActionCatalog,
  type JsonObject,
  type ResourceActionCatalog,
  ResourceActionError,
  resourceActionsFromSettings,
} from '../resource-actions/index.js';
import { loadSettings } from '../settings/index.js';
import type { CommandIo } from './command-io.js';

export interface ActionCommandOptions {
  list?: boolean;
  param: string[];
  resourceCustomizations?: string;
  config?: string;
  output: 'yaml' | 'json';
}

/** `k=v` pairs as a map; a pair without `=` or a name given twice is a usage error. */
function parseParams(pairs: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      throw new BotError('invalid_command', `--param ${pair}: expected name=value`, {
        fix: 'e.g. --param replicas=3',
      });
    }
    const name = pair.slice(0, eq);
    if (name in params) throw new BotError('invalid_command', `--param ${name} given twice`);
    params[name] = pair.slice(eq + 1);
  }
  return params;
}

async function catalogOf(options: ActionCommandOptions): Promise<ResourceActionCatalog> {
  const builtInDir =
    options.resourceCustomizations === undefined
      ? undefined
      : builtInScriptsDir(options.resourceCustomizations, process.cwd(), '--resource-customizations');
  if (options.config !== undefined) {
    const settings = await loadSettings(options.config);
    return resourceActionsFromSettings(settings.health, settings.file, builtInDir);
  }
  return createResourceActionCatalog(builtInDir === undefined ? {} : { builtInDir });
}

async function objectOf(file: string): Promise<JsonObject> {
  const { objects } = parseManifests(await readFile(file, 'utf8'), file);
  if (objects.length !== 1) {
    throw new BotError('invalid_manifest', `${file} holds ${objects.length} objects`, {
      fix: 'give a file with exactly one object (e.g. kubectl get <kind> <name> -o yaml)',
    });
  }
  return (objects[0] as { object: JsonObject }).object;
}

function asBotError(err: unknown): unknown {
  if (err instanceof ResourceActionError) return new BotError('invalid_command', err.message);
  if (err instanceof ActionScriptError || err instanceof ActionResultError) {
    return new BotError('render_failed', `the action failed: ${err.message}`);
  }
  return err;
}

function print(value: unknown, output: ActionCommandOptions['output'], io: CommandIo): void {
  io.stdout(output === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value));
}

export async function printResourceAction(
  file: string,
  action: string | undefined,
  options: ActionCommandOptions,
  io: CommandIo,
): Promise<void> {
  if (options.list === true && action !== undefined) {
    throw new BotError('invalid_command', `--list takes no action (got ${action})`, {
      fix: 'drop one of them',
    });
  }
  if (options.list !== true && action === undefined) {
    throw new BotError('invalid_command', 'missing the action to run', { fix: 'name one, or pass --list' });
  }
  const params = parseParams(options.param);
  const [catalog, obj] = await Promise.all([catalogOf(options), objectOf(file)]);
  try {
    if (options.list === true) print(catalog.discover(obj), options.output, io);
    else print(catalog.runOffered(obj, action as string, params), options.output, io);
  } catch (err) {
    throw asBotError(err);
  }
}
