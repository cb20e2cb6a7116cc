/**
 * The failing Pod of a workload, for a Degraded notice's evidence: among the Pods of the Deployment's current
 * ReplicaSet (the one with the highest `deployment.kubernetes.io/revision`; a StatefulSet's or DaemonSet's own Pods),
 * the one in CrashLoopBackOff first, then one not ready, then the one with the most restarts — and in it the container
 * that fails the same way. Its log is read from the last terminated instance when it crashed (what a crash loop's
 * current, just restarted instance has not written yet), else from the running one.
 */
import type { KubeObject } from '../domain/index.js';
import type { ResourceLine } from './resource-tree.js';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';

interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; terminated?: { reason?: string } };
  lastState?: { terminated?: { reason?: string; exitCode?: number } };
}

export interface FailingPod {
  pod: KubeObject;
  container: string;
  /** Read the previous (crashed) instance's log. */
  previous: boolean;
  /** Why this Pod: `CrashLoopBackOff, 4 restarts`, `not ready`, … */
  why: string;
}

/** The lines below `target` in the tree (its descendants), in tree order. */
function below(lines: readonly ResourceLine[], target: ResourceLine): ResourceLine[] {
  const out: ResourceLine[] = [];
  for (let i = lines.indexOf(target) + 1; i < lines.length; i++) {
    const line = lines[i] as ResourceLine;
    if (line.depth <= target.depth) break;
    out.push(line);
  }
  return out;
}

function revisionOf(obj: KubeObject): number {
  return Number(obj.metadata.annotations?.[REVISION_ANNOTATION] ?? 0) || 0;
}

/** The Pods that count for `target`: a Deployment's current ReplicaSet's, else the Pods below it. */
export function currentPods(lines: readonly ResourceLine[], target: ResourceLine): KubeObject[] {
  const descendants = below(lines, target);
  if (target.object.kind !== 'Deployment') {
    return descendants.filter((l) => l.object.kind === 'Pod').map((l) => l.object);
  }
  const sets = descendants.filter((l) => l.object.kind === 'ReplicaSet' && l.depth === target.depth + 1);
  const current = sets.sort((a, b) => revisionOf(b.object) - revisionOf(a.object))[0];
  if (!current) return [];
  return below(lines, current)
    .filter((l) => l.object.kind === 'Pod')
    .map((l) => l.object);
}

function statusesOf(pod: KubeObject): ContainerStatus[] {
  const status = pod.status as { containerStatuses?: ContainerStatus[] } | undefined;
  return status?.containerStatuses ?? [];
}

/** A container's failure score: CrashLoopBackOff ≫ not ready ≫ restarts. */
function scoreOf(c: ContainerStatus): number {
  const crashLoop = c.state?.waiting?.reason === 'CrashLoopBackOff' ? 1 : 0;
  const notReady = c.ready === false ? 1 : 0;
  return crashLoop * 1_000_000 + notReady * 100_000 + Math.min(c.restartCount ?? 0, 99_999);
}

/** The failing Pod of `pods` and its failing container, or undefined when none fails (all ready, no restarts). */
export function pickFailingPod(pods: readonly KubeObject[]): FailingPod | undefined {
  let best: { pod: KubeObject; container: ContainerStatus; score: number } | undefined;
  for (const pod of pods) {
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    for (const container of statusesOf(pod)) {
      const score = scoreOf(container) + (phase === 'Failed' ? 100_000 : 0);
      if (score > 0 && (!best || score > best.score)) best = { pod, container, score };
    }
  }
  if (!best) return undefined;
  const c = best.container;
  const restarts = c.restartCount ?? 0;
  const waiting = c.state?.waiting?.reason;
  const why = [
    waiting ?? (c.ready === false ? 'not ready' : undefined),
    restarts > 0 ? `${restarts} restart${restarts === 1 ? '' : 's'}` : undefined,
  ].filter(Boolean);
  return {
    pod: best.pod,
    container: c.name,
    // A crashed instance's log is the evidence; a running one that never restarted has only its own.
    previous:
      restarts > 0 && (waiting !== undefined || c.state?.terminated !== undefined || c.ready === false),
    why: why.join(', '),
  };
}
