/**
 * watchCollections — Kubernetes watches that keep running until stopped. Per collection: list (for a
 * resourceVersion; skipped when the target names the version of a list its watcher holds already), then watch from
 * it with a bounded server-side `timeoutSeconds`; a normal close resumes from
 * the last resourceVersion, `410 Gone` (an ERROR event or HTTP status) relists, any other error backs off
 * (200 ms doubling to 5 s) and relists. After a relist every listed object is reported as MODIFIED, so a
 * consumer never misses a change that happened while the watch was down. `relist()` cuts the backoff after an error
 * short (a reader is waiting for the relist: it lists now, once, instead of the reader listing on its own); the
 * backoff after a 410 or a watch closed at once is kept (a consumer's copy is still whole then).
 */

import type { KubeObject } from '../domain/index.js';
import {
  type ClusterWatch,
  type ObjectChange,
  TimeSlice,
  type WatchOptions,
  type WatchTarget,
} from '../engine/index.js';
import type { KubeDiscovery } from './kube-discovery.js';
import type { KubeHttp } from './kube-http.js';

const MAX_BACKOFF_MS = 5_000;

interface Session {
  stopped: boolean;
  abort: { abort(): void } | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Set while the collection backs off after an error: ends the backoff now (`relist()`). */
  wake: (() => void) | undefined;
}

function sleep(ms: number, session: Session, wakeable = false): Promise<void> {
  return new Promise<void>((resolve) => {
    session.timer = setTimeout(resolve, ms);
    if (wakeable)
      session.wake = () => {
        clearTimeout(session.timer);
        resolve();
      };
  }).finally(() => {
    session.wake = undefined;
  });
}

/** A list answer: the collection's resourceVersion and its items. */
export interface WatchList {
  metadata?: { resourceVersion?: string };
  items?: KubeObject[];
}

/** Lists one collection (as plain JSON). */
export type ListCollection = (target: WatchTarget) => Promise<WatchList>;

async function listFrom(
  list: ListCollection,
  target: WatchTarget,
  onChange: (change: ObjectChange) => void,
  options: WatchOptions,
): Promise<string> {
  const answer = await list(target);
  // The objects are made and replayed in time slices (the replay of 50,000 into the bot's live-state cache held its
  // loop ~0.3 s in one piece); onReplayed tells the consumer where the replay ends (what follows is news). The watch
  // opens after it, so no watch event comes between.
  const slice = new TimeSlice();
  const objects: KubeObject[] = [];
  for (const item of answer.items ?? []) {
    if (slice.due()) await slice.pause();
    objects.push({ ...item, apiVersion: target.apiVersion, kind: target.kind });
  }
  await options.onListed?.(target, objects);
  await slice.pause();
  for (const object of objects) {
    if (slice.due()) await slice.pause();
    onChange({ type: 'MODIFIED', object: { ...object } });
  }
  options.onReplayed?.(target);
  return answer.metadata?.resourceVersion ?? '';
}

/** One watch request; resolves with the last resourceVersion, or undefined when the server said 410 Gone. */
function watchOnce(
  http: Pick<KubeHttp, 'watch'>,
  path: string,
  resourceVersion: string,
  timeoutSeconds: number,
  session: Session,
  onChange: (change: ObjectChange) => void,
): Promise<string | undefined> {
  let latest: string | undefined = resourceVersion;
  return new Promise((resolve, reject) => {
    const query = { resourceVersion, timeoutSeconds: String(timeoutSeconds), allowWatchBookmarks: 'true' };
    const onEvent = (type: string, raw: unknown) => {
      const obj = raw as KubeObject & { code?: number };
      if (type === 'ERROR') {
        if (obj.code === 410) latest = undefined;
        session.abort?.abort();
        return;
      }
      if (obj.metadata?.resourceVersion && latest !== undefined) latest = obj.metadata.resourceVersion;
      // Watch events are parsed from the wire by KubeHttp (JSON.parse): already plain JSON.
      if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') onChange({ type, object: obj });
    };
    const onDone = (error: unknown) => {
      const status = (error as { statusCode?: number } | null)?.statusCode;
      if (status === 410) resolve(undefined);
      else if (error && !session.stopped && (error as { name?: string }).name !== 'AbortError') reject(error);
      else resolve(latest);
    };
    http.watch(path, query, onEvent, onDone).then((controller) => {
      session.abort = controller;
      if (session.stopped) controller.abort();
    }, reject);
  });
}

/** A watch open at least this long (ms) was healthy: the restart backoff starts over. */
const HEALTHY_WATCH_MS = 1000;

/** Equal jitter: between half and all of `ms`, so restarting watches of many workers do not move in step. */
function jitter(ms: number): number {
  return Math.floor(ms / 2 + (Math.random() * ms) / 2);
}

async function runCollection(
  http: Pick<KubeHttp, 'watch'>,
  api: KubeDiscovery,
  list: ListCollection,
  target: WatchTarget,
  onChange: (change: ObjectChange) => void,
  timeoutSeconds: number,
  session: Session,
  options: WatchOptions,
): Promise<void> {
  let backoffMs = 200;
  // Held already by the watcher (WatchTarget.resourceVersion): watched from there, listed only after a 410 or error.
  let resourceVersion: string | undefined = target.resourceVersion;
  while (!session.stopped) {
    try {
      const resource = await api.resource(target.apiVersion, target.kind);
      if (resource === undefined) throw new Error(`${target.apiVersion} ${target.kind} is not served`);
      const path = await api.pathOf({ ...target, name: '' }, 'list');
      resourceVersion ??= await listFrom(list, target, onChange, options);
      const openedAt = Date.now();
      resourceVersion = await watchOnce(http, path, resourceVersion, timeoutSeconds, session, onChange);
      // A watch answered 410 Gone, or closed at once, is re-listed and re-opened after a backoff too: a server
      // that keeps answering so must not be hammered (it was: 150–250 requests/s).
      const healthy = resourceVersion !== undefined && Date.now() - openedAt >= HEALTHY_WATCH_MS;
      if (healthy) backoffMs = 200;
      else {
        if (!session.stopped) await sleep(jitter(backoffMs), session);
        backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
      }
    } catch (error) {
      resourceVersion = undefined;
      if (!session.stopped) options.onError?.(target, error);
      if (!session.stopped) await sleep(jitter(backoffMs), session, true);
      backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
    }
  }
}

/** Starts one restarting watch per target; `stop()` aborts them all. */
export function watchCollections(
  http: Pick<KubeHttp, 'watch'>,
  api: KubeDiscovery,
  list: ListCollection,
  targets: readonly WatchTarget[],
  onChange: (change: ObjectChange) => void,
  timeoutSeconds: number,
  options: WatchOptions = {},
): ClusterWatch {
  const sessions = targets.map((target) => {
    const session: Session = { stopped: false, abort: undefined, timer: undefined, wake: undefined };
    void runCollection(http, api, list, target, onChange, timeoutSeconds, session, options);
    return session;
  });
  return {
    relist() {
      for (const session of sessions) session.wake?.();
    },
    stop() {
      for (const session of sessions) {
        session.stopped = true;
        session.abort?.abort();
        if (session.timer) clearTimeout(session.timer);
      }
    },
  };
}
