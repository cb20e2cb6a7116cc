/**
 * Which health script judges an object, in Argo CD's precedence (argo-cd `util/lua/lua.go`, GetHealthScript), by
 * its group and kind (`<group>/<Kind>`, `<Kind>` alone for the core group):
 * 1. a user override for exactly that key (argocd-cm), with its own `useOpenLibs`;
 * 2. the first override whose key is a glob matching it (`*.crossplane.io/*`; `*` matches anything, `/` included;
 *    Argo CD takes any matching one, wavesync the first in the order written);
 * 3. the built-in script `<dir>/<group>/<Kind>/health.lua`;
 * 4. the first built-in wildcard folder (a folder name with `_` standing for `*`, e.g. `_.crossplane.io/_`;
 *    here `*` stops at `/`), in sorted order.
 * Built-in scripts always run with the open libraries. An override with an empty script is skipped, as there.
 * The folder is read lazily, each file once.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { splitApiVersion } from '../domain/index.js';
import type { HealthScript } from './run-health-script.js';

export interface HealthOverride {
  /** `group/Kind`, `Kind`, or a glob. */
  key: string;
  healthLua: string;
  useOpenLibs: boolean;
}

interface ScriptChoice extends HealthScript {
  /** `override` (argocd-cm) or `built-in` (the scripts folder). */
  origin: 'override' | 'built-in';
}

export interface HealthScriptCatalog {
  /** The script for `apiVersion`/`kind`, or undefined when there is none. */
  scriptFor(apiVersion: string, kind: string): ScriptChoice | undefined;
}

export interface HealthScriptCatalogOptions {
  overrides?: readonly HealthOverride[];
  /** Argo CD's `resource_customizations` folder (absolute). */
  builtInDir?: string;
}

/** A glob as a RegExp: `*`, `?`, `[…]` and `{a,b}`; `*` and `?` cross `/` only when `crossSlash`. */
export function globToRegExp(glob: string, crossSlash: boolean): RegExp {
  const any = crossSlash ? '.' : '[^/]';
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') out += `${any}*`;
    else if (c === '?') out += any;
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += c.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${out}$`);
  } catch {
    return /$^/;
  }
}

/** Argo CD's GetConfigMapKey. */
export function groupKindKey(apiVersion: string, kind: string): string {
  const { group } = splitApiVersion(apiVersion);
  return group === '' ? kind : `${group}/${kind}`;
}

function builtInFolder(dir: string) {
  const scripts = new Map<string, string | null>();
  let wildcards: { folder: string; pattern: RegExp }[] | undefined;
  const read = (folder: string): string | null => {
    let source = scripts.get(folder);
    if (source === undefined) {
      const file = path.join(dir, folder, 'health.lua');
      source = existsSync(file) ? readFileSync(file, 'utf8') : null;
      scripts.set(folder, source);
    }
    return source;
  };
  const wildcardFolders = () => {
    if (wildcards === undefined) {
      const found: string[] = [];
      for (const group of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
        if (!group.isDirectory()) continue;
        for (const kind of readdirSync(path.join(dir, group.name), { withFileTypes: true })) {
          const folder = `${group.name}/${kind.name}`;
          if (
            kind.isDirectory() &&
            folder.includes('_') &&
            existsSync(path.join(dir, folder, 'health.lua'))
          ) {
            found.push(folder);
          }
        }
      }
      wildcards = found
        .sort()
        .map((folder) => ({ folder, pattern: globToRegExp(folder.replaceAll('_', '*'), false) }));
    }
    return wildcards;
  };
  return (key: string): { folder: string; source: string } | undefined => {
    // A key that is not a plain path (a '..' or an absolute part) never reads outside the folder.
    if (!key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
      const source = read(key);
      if (source !== null) return { folder: key, source };
    }
    for (const { folder, pattern } of wildcardFolders()) {
      if (!pattern.test(key)) continue;
      const source = read(folder);
      if (source !== null) return { folder, source };
    }
    return undefined;
  };
}

export function createHealthScriptCatalog(options: HealthScriptCatalogOptions): HealthScriptCatalog {
  const overrides = (options.overrides ?? []).filter((o) => o.healthLua !== '');
  const exact = new Map(overrides.map((o) => [o.key, o]));
  const globs = overrides.map((o) => ({ override: o, pattern: globToRegExp(o.key, true) }));
  const builtIn = options.builtInDir ? builtInFolder(options.builtInDir) : undefined;
  const chosen = new Map<string, ScriptChoice | null>();
  const choose = (key: string): ScriptChoice | undefined => {
    const override = exact.get(key) ?? globs.find((g) => g.pattern.test(key))?.override;
    if (override) {
      return {
        origin: 'override',
        name: `resource.customizations.health.${override.key.replace('/', '_')}`,
        source: override.healthLua,
        openLibs: override.useOpenLibs,
      };
    }
    const found = builtIn?.(key);
    if (found)
      return { origin: 'built-in', name: `${found.folder}/health.lua`, source: found.source, openLibs: true };
    return undefined;
  };
  return {
    scriptFor(apiVersion, kind) {
      const key = groupKindKey(apiVersion, kind);
      let choice = chosen.get(key);
      if (choice === undefined) {
        choice = choose(key) ?? null;
        chosen.set(key, choice);
      }
      return choice ?? undefined;
    },
  };
}
