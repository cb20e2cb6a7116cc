/**
 * After a run of CRDs is applied, wait until each CRD whose custom resources this sync also applies is
 * `Established` (condition True) and its kind is served, before the next kind run (custom resources of the same
 * wave) is applied: the API server refuses a custom resource until then. Argo CD polls `Established` for up to 3 s
 * and then carries on (gitops-engine sync_context.go, spec §4.7 step 6); wavesync re-reads the CRD every 100 ms
 * for up to 10 s, then carries on (the apply of a custom resource then fails with the API's message). A CRD whose
 * kind no target of this sync uses is not waited for.
 */
import type { KubeObject } from '../../domain/index.js';
import { objectRefOf, type SyncContext } from '../sync-context.js';
import type { SyncTask } from '../sync-task.js';

const POLL_MS = 100;
const LIMIT_MS = 10_000;

interface CrdSpec {
  group?: string;
  names?: { kind?: string };
  versions?: { name?: string; served?: boolean }[];
}

function servedKindOf(task: SyncTask): { apiVersion: string; group: string; kind: string } | undefined {
  if (task.kind !== 'CustomResourceDefinition' || task.group !== 'apiextensions.k8s.io') return undefined;
  const spec = task.targetObj?.spec as CrdSpec | undefined;
  const version = spec?.versions?.find((v) => v.served !== false)?.name;
  if (!spec?.group || !spec.names?.kind || !version) return undefined;
  return { apiVersion: `${spec.group}/${version}`, group: spec.group, kind: spec.names.kind };
}

/** True when the CRD's `Established` condition is True (apiextensions-apiserver sets it once it serves the kind). */
function isEstablished(crd: KubeObject | undefined): boolean {
  const conditions = (crd?.status as { conditions?: { type?: string; status?: string }[] } | undefined)
    ?.conditions;
  return (conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
}

/** `group/Kind` of every target of the sync. */
function targetKinds(ctx: SyncContext): Set<string> {
  const kinds = new Set<string>();
  for (const { object } of ctx.targets) {
    const slash = object.apiVersion.indexOf('/');
    kinds.add(`${slash < 0 ? '' : object.apiVersion.slice(0, slash)}/${object.kind}`);
  }
  return kinds;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (≤ 10 s in all) for the CRDs of `run` whose kinds this sync applies; never throws for a slow CRD. */
export async function waitForEstablishedCrds(ctx: SyncContext, run: SyncTask[]): Promise<void> {
  const crds = run.flatMap((task) => {
    const served = servedKindOf(task);
    return served ? [{ task, ...served }] : [];
  });
  if (crds.length === 0) return;
  const used = targetKinds(ctx);
  const deadline = Date.now() + LIMIT_MS;
  for (const { task, apiVersion, group, kind } of crds) {
    if (!used.has(`${group}/${kind}`)) continue;
    const ref = objectRefOf(ctx, task);
    while (Date.now() < deadline) {
      if (isEstablished(task.liveObj) || isEstablished(await ctx.live.fresh(ref))) {
        const info = await ctx.cluster.discover(apiVersion, kind);
        if (info) {
          ctx.memory.discovery.set(`${apiVersion}/${kind}`, info);
          break;
        }
      }
      await sleep(POLL_MS);
    }
  }
}
