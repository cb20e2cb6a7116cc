/**
 * After a CRD is applied, wait until the API server serves its kind before the next kind run (custom
 * resources of the same wave) is applied. Argo CD polls `Established` for up to 3 s and then carries on
 * (spec §4.7 step 6); wavesync polls discovery every 100 ms for up to 10 s, then carries on (the apply of a
 * custom resource would then fail with the API's message).
 */
import type { SyncContext } from './sync-context.js';
import type { SyncTask } from './sync-task.js';

const POLL_MS = 100;
const LIMIT_MS = 10_000;

function servedKindOf(task: SyncTask): { apiVersion: string; kind: string } | undefined {
  if (task.kind !== 'CustomResourceDefinition' || task.group !== 'apiextensions.k8s.io') return undefined;
  const spec = task.targetObj?.spec as
    | { group?: string; names?: { kind?: string }; versions?: { name?: string; served?: boolean }[] }
    | undefined;
  const version = spec?.versions?.find((v) => v.served !== false)?.name;
  if (!spec?.group || !spec.names?.kind || !version) return undefined;
  return { apiVersion: `${spec.group}/${version}`, kind: spec.names.kind };
}

export async function waitForCustomResourceKinds(ctx: SyncContext, run: SyncTask[]): Promise<void> {
  const kinds = run.map(servedKindOf).filter((k) => k !== undefined);
  const deadline = Date.now() + LIMIT_MS;
  for (const { apiVersion, kind } of kinds) {
    while (Date.now() < deadline) {
      const info = await ctx.cluster.discover(apiVersion, kind);
      if (info) {
        ctx.memory.discovery.set(`${apiVersion}/${kind}`, info);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
