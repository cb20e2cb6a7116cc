/**
 * The resource actions wavesync.yaml's `health:` configures, from the same sources as health scripts: argocd-cm
 * overrides (`argocdCm`, `resource.customizations.actions.*`) and Argo CD's built-in folder
 * (`builtInScripts.directory`, relative to wavesync.yaml); the Go built-ins (restart) always.
 */
import path from 'node:path';
import { builtInScriptsDir } from '../health-scripts/index.js';
import { type HealthSettings, parseResourceCustomizations } from '../settings/index.js';
import { createResourceActionCatalog, type ResourceActionCatalog } from './action-catalog.js';

export function resourceActionsFromSettings(
  health: HealthSettings,
  settingsFile: string,
  builtInDirOverride?: string,
): ResourceActionCatalog {
  const { actions } = parseResourceCustomizations(health.argocdCm);
  const directory = health.builtInScripts?.directory;
  const builtInDir =
    builtInDirOverride ??
    (directory === undefined
      ? undefined
      : builtInScriptsDir(
          directory,
          path.dirname(settingsFile),
          `${settingsFile}: health.builtInScripts.directory`,
        ));
  return createResourceActionCatalog({
    overrides: actions,
    ...(builtInDir === undefined ? {} : { builtInDir }),
  });
}
