/**
 * The health scripts a CLI command runs with: wavesync.yaml's `health:` (argocdCm overrides, builtInScripts and
 * clusterArgocdCm) from `--config`, else the defaults, and `--resource-customizations DIR` (a copy of Argo CD's
 * resource_customizations folder), which wins over the config's built-in folder. `wavesync health` is offline and
 * judges with them alone; `wavesync sync <path>` adds the cluster's argocd-cm through the worker's source chain
 * (scriptedHealthSource).
 */
import type { ScriptedHealth } from '../engine/index.js';
import {
  type BuiltInScriptsGit,
  builtInScriptsDir,
  type ScriptedHealthSource,
  scriptedHealthFromSettings,
  scriptedHealthSource,
} from '../health-scripts/index.js';
import { defaultSettings, type HealthSettings, loadSettings } from '../settings/index.js';

export interface ScriptedHealthCliOptions {
  config?: string;
  resourceCustomizations?: string;
}

interface CliHealthSettings {
  health: HealthSettings;
  file: string;
  git?: BuiltInScriptsGit;
}

async function healthSettingsOf(options: ScriptedHealthCliOptions): Promise<CliHealthSettings> {
  const settings =
    options.config === undefined ? defaultSettings(process.cwd()) : await loadSettings(options.config);
  if (options.resourceCustomizations !== undefined) {
    const directory = builtInScriptsDir(
      options.resourceCustomizations,
      process.cwd(),
      '--resource-customizations',
    );
    return { health: { ...settings.health, builtInScripts: { directory } }, file: settings.file };
  }
  if (settings.health.builtInScripts?.repoURL === undefined)
    return { health: settings.health, file: settings.file };
  // A git source: fetched (only its folder) the first time a built-in script is needed.
  const { gitRepositoryCacheFor } = await import('../applications/index.js');
  const git = gitRepositoryCacheFor(settings, { env: process.env });
  return { health: settings.health, file: settings.file, git };
}

/** `wavesync health`: the scripts of the options alone (no cluster). Undefined when they name none. */
export async function scriptedHealthOfOptions(
  options: ScriptedHealthCliOptions,
): Promise<ScriptedHealth | undefined> {
  const { health, file, git } = await healthSettingsOf(options);
  return scriptedHealthFromSettings(health, file, git);
}

/** `wavesync sync <path>`: the scripts of the options, and each cluster's argocd-cm below them. */
export async function scriptedHealthSourceOfOptions(
  options: ScriptedHealthCliOptions,
): Promise<ScriptedHealthSource> {
  const { health, file, git } = await healthSettingsOf(options);
  return scriptedHealthSource(health, file, git ? { git } : {});
}
