/**
 * Records core/v1 Events the way kubelet and controllers do: one Event per (object, reason, message), with
 * `count` and `lastTimestamp` bumped on repeats. Event names are `<object>.<hex>` as client-go generates them.
 */
import type { KubeObject } from '../store/kube-object.js';
import { timestamp } from '../store/kube-object.js';
import type { ClusterClient } from './cluster-client.js';

export class EventRecorder {
  private readonly client: () => ClusterClient;

  constructor(client: () => ClusterClient) {
    this.client = client;
  }

  normal(obj: KubeObject, reason: string, message: string, component: string): void {
    this.record(obj, 'Normal', reason, message, component);
  }

  warning(obj: KubeObject, reason: string, message: string, component: string): void {
    this.record(obj, 'Warning', reason, message, component);
  }

  private record(obj: KubeObject, type: string, reason: string, message: string, component: string): void {
    const namespace = obj.metadata.namespace ?? 'default';
    const client = this.client();
    const now = timestamp();
    const previous = client.list('v1', 'Event', namespace).find((e) => {
      const involved = e.involvedObject as { uid?: string } | undefined;
      return involved?.uid === obj.metadata.uid && e.reason === reason && e.message === message;
    });
    try {
      if (previous) {
        client.update({
          ...previous,
          apiVersion: 'v1',
          kind: 'Event',
          count: Number(previous.count ?? 1) + 1,
          lastTimestamp: now,
        });
        return;
      }
      client.create({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${obj.metadata.name}.${nextSuffix()}`, namespace },
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
        },
        reason,
        message,
        type,
        source: { component },
        reportingComponent: component,
        reportingInstance: '',
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      });
    } catch {
      // The namespace may be terminating; real recorders drop such events too.
    }
  }
}

let lastNanos = 0n;

/** Hex of the current Unix time in ns, strictly increasing (client-go names Events `<object>.<hex UnixNano>`). */
function nextSuffix(): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  lastNanos = now > lastNanos ? now : lastNanos + 1n;
  return lastNanos.toString(16);
}
