/**
 * WATCH (`?watch=1|true`): newline-delimited `{type, object}` events over a chunked response, as
 * kube-apiserver streams them. resourceVersion unset or "0" starts with synthetic ADDED events for the
 * current objects; a specific resourceVersion replays history after it, or sends one ERROR event carrying a
 * 410 Expired Status and closes when that history is gone. Supports allowWatchBookmarks (periodic BOOKMARK),
 * sendInitialEvents (BOOKMARK annotated `k8s.io/initial-events-end`), timeoutSeconds, label/field selectors.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../store/kube-object.js';
import type { ObjectStore, StoreEvent } from '../store/object-store.js';
import { apiVersionOf, type ResourceType, typeKey } from './resource-type.js';
import { fieldMatcher, labelMatcher } from './selectors.js';
import { expired } from './status-error.js';

export interface WatchRequest {
  store: ObjectStore;
  type: ResourceType;
  namespace: string | undefined;
  query: URLSearchParams;
  /** Interval between BOOKMARK events in ms (the simulator scales it by its time factor). */
  bookmarkIntervalMs: number;
  /** Called once when the stream ends (server bookkeeping of open watches). */
  onEnd: () => void;
}

/**
 * The wire line of a stored event, serialised once however many watches send it (the store hands every watch of
 * the type the same read-only event object, live and from its history).
 */
const lines = new WeakMap<StoreEvent, string>();

function lineOf(e: StoreEvent): string {
  let line = lines.get(e);
  if (line === undefined) {
    line = `${JSON.stringify({ type: e.type, object: e.object })}\n`;
    lines.set(e, line);
  }
  return line;
}

export function serveWatch(req: IncomingMessage, res: ServerResponse, watch: WatchRequest): void {
  const { store, type, namespace, query } = watch;
  const key = typeKey(type);
  const labels = labelMatcher(query.get('labelSelector'));
  const fields = fieldMatcher(query.get('fieldSelector'), type);
  const matches = (o: KubeObject) =>
    (namespace === undefined || o.metadata.namespace === namespace) && labels(o) && fields(o);
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache',
  });
  res.flushHeaders();
  let lastSent = 0;
  const send = (eventType: string, object: unknown) =>
    res.write(`${JSON.stringify({ type: eventType, object })}\n`);
  const sendEvent = (e: StoreEvent) => {
    if (e.typeKey !== key || e.resourceVersion <= lastSent || !matches(e.object)) return;
    lastSent = e.resourceVersion;
    res.write(lineOf(e));
  };
  const pending: StoreEvent[] = [];
  let live = false;
  const unsubscribe = store.subscribeType(key, (e) => (live ? sendEvent(e) : pending.push(e)));
  const timers: NodeJS.Timeout[] = [];
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    for (const t of timers) clearTimeout(t);
    res.end();
    watch.onEnd();
  };
  req.on('close', end);
  res.on('close', end);
  const bookmark = (annotations?: Record<string, string>) =>
    send('BOOKMARK', {
      kind: type.kind,
      apiVersion: apiVersionOf(type),
      metadata: { resourceVersion: String(store.resourceVersion), ...(annotations ? { annotations } : {}) },
    });
  const requested = query.get('resourceVersion');
  if (!requested || requested === '0' || query.get('sendInitialEvents') === 'true') {
    for (const obj of store.scan(key, namespace)) if (matches(obj)) send('ADDED', obj);
    lastSent = store.resourceVersion;
    if (query.get('sendInitialEvents') === 'true') bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    const since = store.eventsSince(Number(requested));
    if (since === 'expired' || Number.isNaN(Number(requested))) {
      send('ERROR', expired(requested).toStatus());
      end();
      return;
    }
    for (const e of since) sendEvent(e);
  }
  for (const e of pending) sendEvent(e);
  live = true;
  if (query.get('allowWatchBookmarks') === 'true') {
    const tick = () => {
      bookmark();
      timers[0] = setTimeout(tick, watch.bookmarkIntervalMs);
    };
    timers[0] = setTimeout(tick, watch.bookmarkIntervalMs);
  }
  const timeout = Number(query.get('timeoutSeconds') ?? '0');
  if (timeout > 0) timers.push(setTimeout(end, timeout * 1000));
}
