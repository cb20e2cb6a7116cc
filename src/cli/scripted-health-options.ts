/**
 * The health scripts a CLI command runs with: wavesync.yaml's `health:` (argocdCm overrides and builtInScripts)
 * from `--config`, and `--resource-customizations DIR` (a copy of Argo CD's resource_customizations folder), which
 * wins over the config's built-in folder. Shared by `wavesync health` and `wavesync sync <path>`.
 */
import type { ScriptedHealth } from '../engine/index.js';
import {
  builtInScriptsDir,
  createScriptedHealth,
  type HealthOverride,
  scriptedHealthFromSettings,
} from '../health-scripts/index.js';
import { loadSettings, parseResourceCustomizations } from '../settings/index.js';

export interface ScriptedHealthCliOptions {
  config?: string;
  resourceCustomizations?: string;
}

/** Undefined when neither names any script. */
export async function scriptedHealthOfOptions(
  options: ScriptedHealthCliOptions,
): Promise<ScriptedHealth | undefined> {
  let overrides: HealthOverride[] = [];
  let builtInDir: string | undefined;
  if (options.config !== undefined) {
    const settings = await loadSettings(options.config);
    const source = settings.health.builtInScripts;
    if (source?.repoURL !== undefined && options.resourceCustomizations === undefined) {
      // A git source: fetched (only its folder) the first time a built-in script is needed.
      const { gitRepositoryCacheFor } = await import('../applications/index.js');
      const git = gitRepositoryCacheFor(settings, { env: process.env });
      return scriptedHealthFromSettings(settings.health, settings.file, git);
    }
    overrides = parseResourceCustomizations(settings.health.argocdCm).overrides;
    const directory = source?.directory;
    if (directory !== undefined) {
      builtInDir = builtInScriptsDir(
        directory,
        settings.baseDir,
        `${settings.file}: health.builtInScripts.directory`,
      );
    }
  }
  if (options.resourceCustomizations !== undefined) {
    builtInDir = builtInScriptsDir(
      options.resourceCustomizations,
      process.cwd(),
      '--resource-customizations',
    );
  }
  if (overrides.length === 0 && builtInDir === undefined) return undefined;
  return createScriptedHealth({ overrides, ...(builtInDir === undefined ? {} : { builtInDir }) });
}
