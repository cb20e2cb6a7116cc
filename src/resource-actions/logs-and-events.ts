/**
 * The logs and Events of an Application's objects (what `/sync logs` and `/sync events` show):
 * - logs: the last lines of a Pod, or of every Pod under a Deployment/StatefulSet/DaemonSet/ReplicaSet/Job of the
 *   Application (by owner references, as the tree has them); `tail` default 100, at most 1,000 lines a Pod and
 *   64 KiB in all (the newest lines are kept); `previous` for the last terminated instance. Values of the
 *   Application's Secrets (their `data`, decoded, and `stringData`, 4 characters or longer) are replaced by `***`
 *   wherever they appear in a line.
 * - events: the Events whose involvedObject is one of the Application's objects (or the one named), Warnings first,
 *   then newest first; at most 50.
 */
import type { KubeObject } from '../domain/index.js';
import type { Cluster } from '../engine/index.js';
import { ResourceActionError } from './action-catalog.js';
import { kindSlashName, type ResourceLine } from './resource-tree.js';

const DEFAULT_TAIL = 100;
export const MAX_TAIL = 1_000;
const MAX_LOG_BYTES = 64 * 1024;
const MAX_EVENTS = 50;
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']);

export interface LogOptions {
  container?: string;
  tail?: number;
  previous?: boolean;
}

interface PodLog {
  pod: string;
  namespace: string;
  lines: string[];
  /** Why there are no lines (the container has not started, no previous instance, …). */
  problem?: string;
}

export interface LogsResult {
  logs: PodLog[];
  /** Lines dropped to stay within MAX_LOG_BYTES. */
  dropped: number;
}

export interface EventLine {
  type: string;
  reason: string;
  message: string;
  object: string;
  count: number;
  /** ISO time of the last occurrence ('' when unknown). */
  last: string;
}

/** Finds `target` (`Kind/name` or `namespace/Kind/name`) among the lines; ResourceActionError when none or several. */
export function findLine(lines: readonly ResourceLine[], application: string, target: string): ResourceLine {
  const parts = target.split('/');
  const [namespace, kind, name] = parts.length === 3 ? parts : [undefined, parts[0], parts[1]];
  if (!kind || !name || parts.length > 3) {
    throw new ResourceActionError(`name the resource as Kind/name (e.g. Deployment/web), not ${target}`);
  }
  const matches = lines.filter(
    ({ object: o }) =>
      o.kind.toLowerCase() === kind.toLowerCase() &&
      o.metadata.name === name &&
      (namespace === undefined || (o.metadata.namespace ?? '') === namespace),
  );
  if (matches.length === 0) throw new ResourceActionError(`${application} has no resource ${target}`);
  if (matches.length > 1) {
    const where = matches
      .map((l) => `${l.object.metadata.namespace ?? ''}/${kindSlashName(l.object)}`)
      .join(', ');
    throw new ResourceActionError(`${target} is ambiguous in ${application}: name one of ${where}`);
  }
  return matches[0] as ResourceLine;
}

/** The Pods a target stands for: itself, or the Pods below it in the tree. */
export function podsOf(lines: readonly ResourceLine[], target: ResourceLine | undefined): KubeObject[] {
  if (target === undefined) return lines.filter((l) => l.object.kind === 'Pod').map((l) => l.object);
  if (target.object.kind === 'Pod') return [target.object];
  if (!WORKLOADS.has(target.object.kind)) {
    throw new ResourceActionError(`${kindSlashName(target.object)} has no logs: name a Pod or a workload`);
  }
  const start = lines.indexOf(target);
  const below: KubeObject[] = [];
  for (let i = start + 1; i < lines.length && (lines[i] as ResourceLine).depth > target.depth; i++) {
    const line = lines[i] as ResourceLine;
    if (line.object.kind === 'Pod') below.push(line.object);
  }
  return below;
}

/** The values of Secrets worth hiding (decoded `data`, `stringData`), longest first. */
export function secretValues(secrets: readonly KubeObject[]): string[] {
  const values = new Set<string>();
  for (const secret of secrets) {
    for (const value of Object.values((secret.data ?? {}) as Record<string, string>)) {
      const decoded = Buffer.from(String(value), 'base64').toString('utf8');
      for (const part of [decoded, decoded.trim()]) if (part.length >= 4) values.add(part);
    }
    for (const value of Object.values((secret.stringData ?? {}) as Record<string, string>)) {
      if (String(value).length >= 4) values.add(String(value));
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

function redact(line: string, values: readonly string[]): string {
  let out = line;
  for (const value of values) if (out.includes(value)) out = out.split(value).join('***');
  return out;
}

export async function readLogs(
  cluster: Pick<Cluster, 'podLogs'>,
  pods: readonly KubeObject[],
  secrets: readonly string[],
  options: LogOptions,
): Promise<LogsResult> {
  const tail = Math.min(Math.max(Math.trunc(options.tail ?? DEFAULT_TAIL), 1), MAX_TAIL);
  const logs = await Promise.all(
    pods.map(async (pod): Promise<PodLog> => {
      const where = { pod: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '' };
      try {
        const lines = await cluster.podLogs(where.namespace, where.pod, {
          tailLines: tail,
          ...(options.container ? { container: options.container } : {}),
          ...(options.previous ? { previous: true } : {}),
        });
        return { ...where, lines: lines.map((l) => redact(l, secrets)) };
      } catch (err) {
        return { ...where, lines: [], problem: err instanceof Error ? err.message : String(err) };
      }
    }),
  );
  // Newest lines kept: the byte budget is spent from the end of each log, the logs in turn.
  let budget = MAX_LOG_BYTES;
  let dropped = 0;
  for (const log of logs) {
    const kept: string[] = [];
    for (let i = log.lines.length - 1; i >= 0; i--) {
      const line = log.lines[i] as string;
      const size = Buffer.byteLength(line) + 1;
      if (size > budget) {
        dropped += i + 1;
        break;
      }
      budget -= size;
      kept.unshift(line);
    }
    log.lines = kept;
  }
  return { logs, dropped };
}

function timeOf(event: KubeObject): string {
  const e = event as Record<string, unknown>;
  const series = e.series as { lastObservedTime?: string } | undefined;
  return String(series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? '');
}

/** Events of `objects`, Warnings first, then newest first, at most MAX_EVENTS. */
export function eventsOf(events: readonly KubeObject[], objects: readonly KubeObject[]): EventLine[] {
  const uids = new Set(objects.map((o) => o.metadata.uid).filter(Boolean));
  return events
    .filter((e) => uids.has((e.involvedObject as { uid?: string } | undefined)?.uid))
    .map((e) => {
      const involved = e.involvedObject as { kind?: string; name?: string };
      return {
        type: String(e.type ?? 'Normal'),
        reason: String(e.reason ?? ''),
        message: String(e.message ?? ''),
        object: `${involved.kind ?? ''}/${involved.name ?? ''}`,
        count: Number((e as { count?: number }).count ?? 1),
        last: timeOf(e),
      };
    })
    .sort(
      (a, b) => Number(b.type === 'Warning') - Number(a.type === 'Warning') || b.last.localeCompare(a.last),
    )
    .slice(0, MAX_EVENTS);
}
