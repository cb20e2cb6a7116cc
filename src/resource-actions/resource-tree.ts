/**
 * An Application's resources as a tree, the way Argo CD's resource tree shows them: the objects the Application
 * tracks at the top, and under each what it owns by `metadata.ownerReferences` (Deployment → ReplicaSet → Pod,
 * CronJob → Job → Pod, StatefulSet → Pod), each with its health and message. Unhealthy first: at every level the
 * siblings are ordered Degraded, Progressing, then the rest (Missing, Unknown, Suspended, Healthy, none), each group
 * by kind and name; a parent counts as badly as its worst descendant, so a Deployment whose Pod is Degraded comes
 * first. A child whose owner is not in the tree is not shown (it belongs to something else).
 */
import type { HealthStatus, KubeObject } from '../domain/index.js';
import { splitApiVersion } from '../domain/index.js';

export interface ResourceLine {
  object: KubeObject;
  /** 0 for a tracked object, 1 for what it owns, … */
  depth: number;
  health?: HealthStatus;
  /** `OutOfSync` / `Synced` for tracked objects when known; children have none (Argo CD shows none either). */
  syncStatus?: 'Synced' | 'OutOfSync';
}

const ORDER = ['Degraded', 'Progressing', 'Missing', 'Unknown', 'Suspended', 'Healthy'];

function rank(health: HealthStatus | undefined): number {
  const i = health ? ORDER.indexOf(health.status) : -1;
  return i < 0 ? ORDER.length : i;
}

/** `Kind/name`, or `Kind.group/name` outside the core and apps groups would be ambiguous: kept simple, as kubectl. */
export function kindSlashName(obj: KubeObject): string {
  return `${obj.kind}/${obj.metadata.name ?? ''}`;
}

function identityOf(obj: KubeObject): string {
  const { group } = splitApiVersion(obj.apiVersion);
  return `${group}/${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

export interface TreeInput {
  tracked: readonly KubeObject[];
  /** Candidates for children (e.g. every ReplicaSet, Pod and Job in the tracked objects' namespaces). */
  candidates: readonly KubeObject[];
  health(obj: KubeObject): HealthStatus | undefined;
  /** Identities (identityOf) of tracked objects that differ from the manifests, when compared. */
  outOfSync?: ReadonlySet<string>;
}

/** The tree in display order (depth-first). */
export function buildResourceTree(input: TreeInput): ResourceLine[] {
  const byOwner = new Map<string, KubeObject[]>();
  for (const obj of input.candidates) {
    for (const ref of obj.metadata.ownerReferences ?? []) {
      if (!ref.uid) continue;
      const list = byOwner.get(ref.uid) ?? [];
      list.push(obj);
      byOwner.set(ref.uid, list);
    }
  }
  const seen = new Set<string>();
  interface Node {
    line: ResourceLine;
    children: Node[];
    worst: number;
  }
  const nodeOf = (object: KubeObject, depth: number, tracked: boolean): Node => {
    seen.add(identityOf(object));
    const health = input.health(object);
    const line: ResourceLine = { object, depth, ...(health ? { health } : {}) };
    if (tracked && input.outOfSync) {
      line.syncStatus = input.outOfSync.has(identityOf(object)) ? 'OutOfSync' : 'Synced';
    }
    const uid = object.metadata.uid;
    const children = (uid ? (byOwner.get(uid) ?? []) : [])
      .filter((child) => !seen.has(identityOf(child)))
      .map((child) => nodeOf(child, depth + 1, false));
    const worst = Math.min(rank(health), ...children.map((c) => c.worst));
    return { line, children: sorted(children), worst };
  };
  const sorted = (nodes: Node[]) =>
    nodes.sort(
      (a, b) =>
        a.worst - b.worst ||
        a.line.object.kind.localeCompare(b.line.object.kind) ||
        (a.line.object.metadata.name ?? '').localeCompare(b.line.object.metadata.name ?? ''),
    );
  const roots = sorted(input.tracked.map((obj) => nodeOf(obj, 0, true)));
  const out: ResourceLine[] = [];
  const walk = (node: Node) => {
    out.push(node.line);
    for (const child of node.children) walk(child);
  };
  for (const root of roots) walk(root);
  return out;
}

/** The kinds the tree looks for below tracked objects (what Argo CD's tree shows most often). */
export const CHILD_KINDS = [
  { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  { apiVersion: 'v1', kind: 'Pod' },
  { apiVersion: 'batch/v1', kind: 'Job' },
] as const;
