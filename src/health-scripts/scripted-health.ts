/**
 * createScriptedHealth — the engine's ScriptedHealth port over the Lua VM and the script catalog: the health a
 * script gives a live object, or undefined when no script judges its group/kind. User overrides (argocd-cm) are
 * asked for every kind, before wavesync's own checks, as Argo CD asks them before its Go checks; built-in scripts
 * only for kinds wavesync has no check of its own for (it has ports of those Argo CD checks, e.g. the CRD one).
 *
 * Scripts run in a worker thread (health-script-runner.ts: time, string bytes and heap bounded, the event loop
 * never waits on a script): the process's shared runner unless `runner` is given. `vm` runs them in this thread
 * instead, synchronously — for tests and tools that trust their scripts.
 */
import type { ScriptedHealth } from '../engine/index.js';
import {
  createHealthScriptCatalog,
  type HealthScriptCatalog,
  type HealthScriptCatalogOptions,
} from './health-script-catalog.js';
import {
  createHealthScriptRunner,
  type HealthScriptRunner,
  type HealthScriptRunnerOptions,
  sharedHealthScriptRunner,
} from './health-script-runner.js';
import type { HealthScriptVm } from './run-health-script.js';

export interface ScriptedHealthOptions extends HealthScriptCatalogOptions, HealthScriptRunnerOptions {
  /** Run scripts in this thread with this VM, synchronously (default: in the worker). */
  vm?: HealthScriptVm;
  /** The worker runner to use (default: the process's shared one, or one of its own when limits are given). */
  runner?: HealthScriptRunner;
}

function runnerFor(options: ScriptedHealthOptions): HealthScriptRunner {
  if (options.runner) return options.runner;
  const { timeoutMs, byteBudget, maxHeapMb, graceMs } = options;
  const limits = { timeoutMs, byteBudget, maxHeapMb, graceMs };
  if (Object.values(limits).every((v) => v === undefined)) return sharedHealthScriptRunner();
  return createHealthScriptRunner(
    Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
  );
}

export function createScriptedHealth(options: ScriptedHealthOptions): ScriptedHealth {
  const catalog: HealthScriptCatalog = createHealthScriptCatalog(options);
  const { vm } = options;
  const runner = vm ? undefined : runnerFor(options);
  return (obj, { hasOwnCheck }) => {
    const script = catalog.scriptFor(obj.apiVersion, obj.kind);
    if (script === undefined || (hasOwnCheck && script.origin === 'built-in')) return undefined;
    return vm ? vm.run(script, obj) : runner!.run(script, obj);
  };
}
