/**
 * An Application's PreDelete and PostDelete hooks during its deletion (spec §9.2 steps 1 and 3): each created,
 * tracked as the Application's (an existing copy with BeforeHookCreation — the default — deleted first), awaited
 * until Healthy (or without health; Lua health scripts judge the kinds they cover, as in a sync), then deleted per
 * its HookSucceeded / HookFailed policy, with one DeletionHookFinished event per hook.
 */
import {
  type Application,
  type KubeObject,
  type ResourceTracking,
  resourceKeyOf,
  type SyncEvent,
  shortName,
} from '../domain/index.js';
import {
  type Cluster,
  getResourceHealth,
  hasDeletePolicy,
  refOf,
  type ScriptedHealth,
  withTracking,
} from '../engine/index.js';
import type { DeletionHookType } from './deletion-hooks.js';

/** What running the hooks needs from the deletion under way (./delete-application.ts). */
export interface DeletionHookRun {
  /** The Application, with the finalizers of the deletion's cascade. */
  app: Application;
  cluster: Cluster;
  tracking: ResourceTracking | undefined;
  scriptedHealth: ScriptedHealth | undefined;
  reporter: { report(event: SyncEvent): Promise<void> };
  /** The deletion's time limit, named when a hook does not finish by the deadline. */
  timeoutMs: number;
  /** Watch the kinds of `objects`, so a change of one wakes `waitFor` at once. */
  watch(objects: readonly KubeObject[]): void;
  /** Re-check `done` on every watch event (or relist interval) until it holds or the deadline passes. */
  waitFor(done: () => Promise<boolean>, deadline: number): Promise<boolean>;
}

/**
 * Create `hooks`, wait until every one is Healthy (or has no health), then delete those with HookSucceeded. A
 * Degraded hook (its HookFailed ones deleted) or the deadline ends it: resolves with the failure, else undefined.
 */
export async function runDeletionHooks(
  run: DeletionHookRun,
  type: DeletionHookType,
  hooks: readonly KubeObject[],
  deadline: number,
): Promise<string | undefined> {
  if (hooks.length === 0) return undefined;
  const { cluster, app } = run;
  const namespace = app.destination.namespace ?? '';
  const labelled = hooks.map((h) => withTracking(h, app.name, namespace, run.tracking));
  run.watch(labelled);
  for (const hook of labelled) {
    const ref = refOf(hook);
    if ((await cluster.get(ref)) && hasDeletePolicy(hook, 'BeforeHookCreation')) {
      await cluster.delete(ref, { propagationPolicy: 'Foreground' });
      const gone = await run.waitFor(async () => (await cluster.get(ref)) === undefined, deadline);
      if (!gone)
        return `${type} hook ${shortName(resourceKeyOf(hook))}: its previous copy is still terminating`;
    }
    await cluster.apply(hook, { dryRun: false, force: true });
  }
  const pending = new Set(labelled);
  let failure: string | undefined;
  const settled = await run.waitFor(async () => {
    for (const hook of [...pending]) {
      const live = await cluster.get(refOf(hook));
      const scripted = run.scriptedHealth;
      const health = live
        ? await getResourceHealth(live, scripted ? { scripted } : {})
        : { status: 'Missing' as const, message: 'not found' };
      if (health === undefined || health.status === 'Healthy') {
        pending.delete(hook);
        await hookFinished(run, type, hook, 'Succeeded', '');
      } else if (health.status === 'Degraded' || health.status === 'Missing') {
        pending.delete(hook);
        failure = `${type} hook ${shortName(resourceKeyOf(hook))} failed: ${health.message ?? health.status}`;
        await hookFinished(run, type, hook, 'Failed', health.message ?? health.status);
      }
    }
    return pending.size === 0;
  }, deadline);
  if (!settled) {
    const names = [...pending].map((h) => shortName(resourceKeyOf(h))).join(', ');
    return `Timed out after ${Math.round(run.timeoutMs / 1000)}s waiting for ${type} hook${pending.size === 1 ? '' : 's'} ${names}`;
  }
  return failure;
}

/** A hook ended: deleted when its policy says so, then told (DeletionHookFinished). */
async function hookFinished(
  run: DeletionHookRun,
  type: DeletionHookType,
  hook: KubeObject,
  hookPhase: 'Succeeded' | 'Failed',
  message: string,
): Promise<void> {
  const policy = hookPhase === 'Succeeded' ? 'HookSucceeded' : 'HookFailed';
  if (hasDeletePolicy(hook, policy)) {
    await run.cluster.delete(refOf(hook), { propagationPolicy: 'Foreground' });
  }
  await run.reporter.report({
    type: 'DeletionHookFinished',
    at: new Date().toISOString(),
    hookType: type,
    task: { ...resourceKeyOf(hook), isHook: true, isPrune: false },
    hookPhase,
    message,
  });
}
