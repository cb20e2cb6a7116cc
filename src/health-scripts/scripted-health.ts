/**
 * createScriptedHealth — the engine's ScriptedHealth port over the Lua VM and the script catalog: the health a
 * script gives a live object, or undefined when no script judges its group/kind. User overrides (argocd-cm) are
 * asked for every kind, before wavesync's own checks, as Argo CD asks them before its Go checks; built-in scripts
 * only for kinds wavesync has no check of its own for (it has ports of those Argo CD checks, e.g. the CRD one).
 */
import type { ScriptedHealth } from '../engine/index.js';
import {
  createHealthScriptCatalog,
  type HealthScriptCatalog,
  type HealthScriptCatalogOptions,
} from './health-script-catalog.js';
import {
  createHealthScriptVm,
  type HealthScriptVm,
  type HealthScriptVmOptions,
} from './run-health-script.js';

export interface ScriptedHealthOptions extends HealthScriptCatalogOptions, HealthScriptVmOptions {
  /** Share one VM between several evaluators (default: a VM of its own). */
  vm?: HealthScriptVm;
}

export function createScriptedHealth(options: ScriptedHealthOptions): ScriptedHealth {
  const catalog: HealthScriptCatalog = createHealthScriptCatalog(options);
  const vm = options.vm ?? createHealthScriptVm(options);
  return (obj, { hasOwnCheck }) => {
    const script = catalog.scriptFor(obj.apiVersion, obj.kind);
    if (script === undefined || (hasOwnCheck && script.origin === 'built-in')) return undefined;
    return vm.run(script, obj);
  };
}
