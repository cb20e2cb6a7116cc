/**
 * What every simulated controller gets: the in-process client, the scaled scheduler, the event recorder, the
 * pod log store, the logger, and the test override switch (a pinned object's status is left alone).
 */

import type { PodLogStore } from '../kubelet/pod-log-store.js';
import { isJsonObject, type KubeObject, timestamp } from '../store/kube-object.js';
import type { StoreEvent } from '../store/object-store.js';
import type { ClusterClient } from './cluster-client.js';
import type { EventRecorder } from './event-recorder.js';
import type { Scheduler } from './scheduler.js';

/** The logging calls the simulator makes (pino's Logger satisfies it). */
export interface SimLogger {
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ControllerContext {
  client: ClusterClient;
  scheduler: Scheduler;
  events: EventRecorder;
  logs: PodLogStore;
  logger: SimLogger;
  /** true when a test pinned this object's status (controllers must not overwrite it). */
  isPinned(obj: KubeObject): boolean;
  /** Simulated seconds between a CRD's creation and its `Established` condition (SimulatorOptions). */
  crdEstablishSeconds: number;
}

export type Controller = (ctx: ControllerContext) => void;

/** Subscribe to store events of the given type keys (`group/plural`). */
export function onTypes(ctx: ControllerContext, typeKeys: string[], fn: (event: StoreEvent) => void): void {
  ctx.client.store.subscribe((event) => {
    if (typeKeys.includes(event.typeKey)) fn(event);
  });
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
  [key: string]: unknown;
}

/** Set a condition, keeping lastTransitionTime when the status did not change (as controllers do). */
export function setCondition(conditions: Condition[], next: Condition, withUpdateTime = false): Condition[] {
  const now = timestamp();
  const existing = conditions.find((c) => c.type === next.type);
  const changed = !existing || existing.status !== next.status;
  const sameContent =
    existing && !changed && existing.reason === next.reason && existing.message === next.message;
  const merged: Condition = {
    ...next,
    lastTransitionTime: changed ? now : (existing?.lastTransitionTime ?? now),
  };
  if (withUpdateTime) merged.lastUpdateTime = sameContent ? (existing?.lastUpdateTime ?? now) : now;
  return existing ? conditions.map((c) => (c.type === next.type ? merged : c)) : [...conditions, merged];
}

export function statusOf(obj: KubeObject): Record<string, unknown> {
  return isJsonObject(obj.status) ? obj.status : {};
}
