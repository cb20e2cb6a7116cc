/**
 * Which resource actions an object offers, and what one does to it, from the same sources as health scripts, in
 * Argo CD's precedence (argo-cd `util/lua/lua.go`, GetResourceActionDiscovery / GetResourceAction), by the object's
 * `<group>/<Kind>` (`<Kind>` for the core group; no globs for actions, as there):
 * 1. an argocd-cm override (`resource.customizations.actions.<group>_<Kind>`): its `discovery.lua` and its
 *    `definitions`; with `mergeBuiltinActions` the built-in actions are offered too (the override's win by name);
 * 2. the built-in folder: `<dir>/<group>/<Kind>/actions/discovery.lua` and `…/actions/<action>/action.lua`;
 * 3. the actions Argo CD implements in Go, for kinds that have no script: `restart` of a Deployment, StatefulSet
 *    or DaemonSet (built-in-actions.ts).
 * Discovery runs with the standard libraries open, actions with the safe `os` only (run-action-script.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { groupKindKey } from '../health-scripts/index.js';
import {
  type ImpactedResource,
  isJsonObject,
  type JsonObject,
  type ResourceAction,
  readActionResult,
  readDiscoveryResult,
} from './action-results.js';
import { builtInGoActions } from './built-in-actions.js';
import { runActionScript } from './run-action-script.js';

/** An argocd-cm actions override for one `<group>/<Kind>`. */
interface ActionsOverride {
  key: string;
  discoveryLua: string;
  definitions: { name: string; actionLua: string }[];
  mergeBuiltinActions: boolean;
}

export interface ResourceActionCatalogOptions {
  overrides?: readonly ActionsOverride[];
  /** Argo CD's `resource_customizations` folder (absolute). */
  builtInDir?: string;
  timeoutMs?: number;
}

export class ResourceActionError extends Error {
  override name = 'ResourceActionError';
}

export interface ResourceActionCatalog {
  /** What discovery offers for `obj` (disabled ones included); [] when nothing does. Throws on a script error. */
  discover(obj: JsonObject): ResourceAction[];
  /** Runs `action` on `obj` (no discovery check: see runOffered); the objects it would patch or create. */
  run(obj: JsonObject, action: string, params?: Readonly<Record<string, string>>): ImpactedResource[];
  /**
   * Runs `action` only if discovery offers it enabled for `obj`, with only the parameters it declares (a declared
   * one not given takes its `default`); else a ResourceActionError naming what is offered.
   */
  runOffered(obj: JsonObject, action: string, params?: Readonly<Record<string, string>>): ImpactedResource[];
}

/** `Kind/name` of an object, for messages. */
function objectLabel(obj: JsonObject): string {
  const metadata = isJsonObject(obj.metadata) ? obj.metadata : {};
  return `${String(obj.kind ?? '?')}/${String(metadata.name ?? '?')}`;
}

/** The parameters to run `action` with: only declared ones, defaults filled in. */
function checkedParams(
  action: ResourceAction,
  label: string,
  params: Readonly<Record<string, string>>,
): Record<string, string> {
  const declared = action.params ?? [];
  const unknown = Object.keys(params).filter((name) => !declared.some((p) => p.name === name));
  if (unknown.length > 0) {
    throw new ResourceActionError(
      `action ${action.name} of ${label} has no parameter ${unknown.join(', ')} (${
        declared.length === 0 ? 'it takes none' : `it takes ${declared.map((p) => p.name).join(', ')}`
      })`,
    );
  }
  const out: Record<string, string> = {};
  for (const p of declared) {
    const value = params[p.name] ?? p.default;
    if (value !== undefined) out[p.name] = value;
  }
  return out;
}

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

function objectKey(obj: JsonObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (kind === '') throw new ResourceActionError('the object has no kind');
  return groupKindKey(apiVersion, kind);
}

/** A key that is a plain relative path (no `..`, no empty part) — never reads outside the folder. */
function isPlainKey(key: string): boolean {
  return !key.split('/').some((part) => part === '' || part === '.' || part === '..');
}

export function createResourceActionCatalog(options: ResourceActionCatalogOptions): ResourceActionCatalog {
  const overrides = new Map((options.overrides ?? []).map((o) => [o.key, o]));
  const { builtInDir, timeoutMs } = options;
  const builtInDiscovery = (key: string) =>
    builtInDir && isPlainKey(key)
      ? readIfExists(path.join(builtInDir, key, 'actions', 'discovery.lua'))
      : undefined;
  const builtInAction = (key: string, action: string) =>
    builtInDir && isPlainKey(key) && isPlainKey(action)
      ? readIfExists(path.join(builtInDir, key, 'actions', action, 'action.lua'))
      : undefined;

  const runDiscovery = (source: string, name: string, obj: JsonObject) =>
    readDiscoveryResult(runActionScript({ source, name, openLibs: true, obj, timeoutMs }));

  const builtInActions = (key: string, obj: JsonObject): ResourceAction[] => {
    const source = builtInDiscovery(key);
    if (source !== undefined) return runDiscovery(source, `${key}/actions/discovery.lua`, obj);
    return builtInGoActions(key)?.discover(obj) ?? [];
  };

  return {
    discover(obj) {
      const key = objectKey(obj);
      const override = overrides.get(key);
      if (override === undefined || override.discoveryLua === '') return builtInActions(key, obj);
      const own = runDiscovery(override.discoveryLua, `resource.customizations.actions.${key}`, obj);
      if (!override.mergeBuiltinActions) return own;
      const names = new Set(own.map((a) => a.name));
      return [...own, ...builtInActions(key, obj).filter((a) => !names.has(a.name))].sort((a, b) =>
        a.name.localeCompare(b.name),
      );
    },
    run(obj, action, params = {}) {
      const key = objectKey(obj);
      const overridden = overrides.get(key)?.definitions.find((d) => d.name === action);
      const scripted =
        overridden !== undefined
          ? { source: overridden.actionLua, name: `resource.customizations.actions.${key}: ${action}` }
          : (() => {
              const source = builtInAction(key, action);
              return source === undefined
                ? undefined
                : { source, name: `${key}/actions/${action}/action.lua` };
            })();
      if (scripted === undefined) {
        const goAction = builtInGoActions(key);
        if (goAction?.names.includes(action)) return goAction.run(structuredClone(obj), action);
        throw new ResourceActionError(`${key} has no action named ${action}`);
      }
      const result = runActionScript({ ...scripted, openLibs: false, obj, params, timeoutMs });
      return readActionResult(result, obj);
    },
    runOffered(obj, action, params = {}) {
      const label = objectLabel(obj);
      const offered = this.discover(obj);
      const found = offered.find((a) => a.name === action);
      if (found === undefined) {
        throw new ResourceActionError(
          `${label} offers no action ${action} (${
            offered.length === 0 ? 'it offers none' : `it offers ${offered.map((a) => a.name).join(', ')}`
          })`,
        );
      }
      if (found.disabled) throw new ResourceActionError(`action ${action} is disabled for ${label} now`);
      return this.run(obj, action, checkedParams(found, label, params));
    },
  };
}
