/**
 * scriptedHealthFromSettings — the health scripts wavesync.yaml's `health:` configures: argocd-cm overrides
 * (`argocdCm`) and Argo CD's built-in scripts folder (`builtInScripts.directory`, relative to wavesync.yaml).
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { BotError } from '../domain/index.js';
import type { ScriptedHealth } from '../engine/index.js';
import { type HealthSettings, parseResourceCustomizations } from '../settings/index.js';
import { createScriptedHealth } from './scripted-health.js';

/** The folder of built-in scripts, absolute; throws when it is not a folder. */
export function builtInScriptsDir(directory: string, baseDir: string, where: string): string {
  const dir = path.resolve(baseDir, directory.replace(/^~(?=$|\/)/, homedir()));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new BotError('invalid_config', `health scripts folder not found: ${dir} (${where})`, {
      fix: "point it at a copy of Argo CD's resource_customizations folder (<group>/<Kind>/health.lua)",
    });
  }
  return dir;
}

/** Undefined when `health:` configures no script at all. */
export function scriptedHealthFromSettings(
  health: HealthSettings,
  settingsFile: string,
): ScriptedHealth | undefined {
  const { overrides } = parseResourceCustomizations(health.argocdCm);
  const directory = health.builtInScripts?.directory;
  if (overrides.length === 0 && directory === undefined) return undefined;
  return createScriptedHealth({
    overrides,
    ...(directory === undefined
      ? {}
      : {
          builtInDir: builtInScriptsDir(
            directory,
            path.dirname(settingsFile),
            `${settingsFile}: health.builtInScripts.directory`,
          ),
        }),
  });
}
