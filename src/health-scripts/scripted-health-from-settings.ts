/**
 * scriptedHealthFromSettings — the health scripts wavesync.yaml's `health:` configures: argocd-cm overrides
 * (`argocdCm`) and Argo CD's built-in scripts folder (`builtInScripts`): a local `directory` (relative to
 * wavesync.yaml), or a git source (`repoURL`, `targetRevision`, `path`) fetched through the git layer's
 * checkoutPath (only that folder) the first time a built-in script is needed, then kept. Overrides never wait for
 * that fetch; a fetch that fails fails the health evaluation with why, and is tried again at the next one.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { BotError } from '../domain/index.js';
import type { ScriptedHealth } from '../engine/index.js';
import { type HealthSettings, parseResourceCustomizations } from '../settings/index.js';
import type { HealthOverride } from './health-script-catalog.js';
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

/** What a git source of built-in scripts needs of the git layer (GitRepositoryCache.checkoutPath). */
export interface BuiltInScriptsGit {
  checkoutPath(repoURL: string, revision: string, subpath: string): Promise<{ dir: string; sha: string }>;
}

/** Undefined when `health:` configures no script at all. */
export function scriptedHealthFromSettings(
  health: HealthSettings,
  settingsFile: string,
  git?: BuiltInScriptsGit,
  /** More overrides below wavesync.yaml's (the cluster's own argocd-cm, cluster-argocd-cm.ts). */
  lowerOverrides: readonly HealthOverride[] = [],
): ScriptedHealth | undefined {
  const own = parseResourceCustomizations(health.argocdCm).overrides;
  const ownKeys = new Set(own.map((o) => o.key));
  const overrides = [...own, ...lowerOverrides.filter((o) => !ownKeys.has(o.key))];
  const source = health.builtInScripts;
  const where = `${settingsFile}: health.builtInScripts`;
  if (source?.directory !== undefined || source === undefined) {
    const directory = source?.directory;
    if (overrides.length === 0 && directory === undefined) return undefined;
    return createScriptedHealth({
      overrides,
      ...(directory === undefined
        ? {}
        : { builtInDir: builtInScriptsDir(directory, path.dirname(settingsFile), `${where}.directory`) }),
    });
  }
  if (git === undefined) throw new Error(`${where}: a git source needs the git repository cache`);
  return fromGit(
    overrides,
    { ...source, repoURL: source.repoURL ?? '', path: source.path ?? '' },
    git,
    where,
  );
}

function fromGit(
  overrides: HealthOverride[],
  source: { repoURL: string; targetRevision?: string | undefined; path: string },
  git: BuiltInScriptsGit,
  where: string,
): ScriptedHealth {
  const revision = source.targetRevision ?? 'HEAD';
  const byOverride = overrides.length > 0 ? createScriptedHealth({ overrides }) : undefined;
  let builtIn: Promise<ScriptedHealth> | undefined;
  const load = (): Promise<ScriptedHealth> => {
    builtIn ??= git.checkoutPath(source.repoURL, revision, source.path).then(
      (checkout) =>
        createScriptedHealth({
          builtInDir: builtInScriptsDir(path.join(checkout.dir, source.path), checkout.dir, where),
        }),
      (error: unknown) => {
        builtIn = undefined; // tried again at the next evaluation
        throw new BotError(
          'invalid_config',
          `health scripts from ${source.repoURL} at ${revision} (${source.path}) could not be fetched: ${(error as Error).message} (${where})`,
          { cause: error },
        );
      },
    );
    return builtIn;
  };
  return async (obj, context) => {
    const overridden = await byOverride?.(obj, context);
    if (overridden !== undefined || context.hasOwnCheck) return overridden;
    return (await load())(obj, context);
  };
}
