/**
 * Inspection and override helpers for tests and the demo: read objects straight from the store, write them
 * without HTTP, force a status (pinned, so controllers leave it alone), read events and pod logs, wait for a
 * condition, and expire watch history.
 */

import type { ClusterClient, ObjectRef } from './controllers/cluster-client.js';
import {
  type Condition,
  type ControllerContext,
  setCondition,
  statusOf,
} from './controllers/controller-context.js';
import type { KubeletHandle } from './kubelet/kubelet.js';
import { isJsonObject, type KubeObject } from './store/kube-object.js';

export class TestHelpers {
  private readonly client: ClusterClient;
  private readonly ctx: ControllerContext;
  private readonly pinned: Set<string>;
  private readonly node: KubeletHandle;

  constructor(client: ClusterClient, ctx: ControllerContext, pinned: Set<string>, node: KubeletHandle) {
    this.node = node;
    this.client = client;
    this.ctx = ctx;
    this.pinned = pinned;
  }

  /** The stored object, or undefined. */
  get(ref: ObjectRef): KubeObject | undefined {
    return this.client.get(ref.apiVersion, ref.kind, ref.namespace, ref.name);
  }

  /** Objects of a kind (all namespaces when namespace is omitted), sorted by namespace and name. */
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    return this.client.list(apiVersion, kind, namespace);
  }

  /** Create the object, or replace it when it exists (manager `sim-test`-less: kube-controller-manager). */
  put(obj: KubeObject): KubeObject {
    const live = this.client.get(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name ?? '');
    if (!live) return this.client.create(obj);
    return this.client.update({
      ...obj,
      metadata: { ...obj.metadata, resourceVersion: live.metadata.resourceVersion },
    });
  }

  /** Delete as a client would (propagationPolicy default Background). */
  delete(ref: ObjectRef, propagationPolicy = 'Background'): void {
    this.client.delete(ref, propagationPolicy);
  }

  /**
   * Merge `status` into the object's status and pin it (controllers stop writing this object's status) unless
   * `pin: false`. Throws when the object does not exist.
   */
  setStatus(ref: ObjectRef, status: Record<string, unknown>, options: { pin?: boolean } = {}): KubeObject {
    const live = this.require(ref);
    if (options.pin !== false) this.pinned.add(live.metadata.uid ?? '');
    live.status = { ...statusOf(live), ...status };
    return this.client.updateStatus(live);
  }

  /** Set one status condition (by type) and pin the object, e.g. force `Available=False`. */
  setCondition(ref: ObjectRef, condition: Condition, options: { pin?: boolean } = {}): KubeObject {
    const live = this.require(ref);
    const conditions = setCondition((statusOf(live).conditions ?? []) as Condition[], condition);
    return this.setStatus(ref, { conditions }, options);
  }

  /** Let controllers manage the object's status again. */
  unpin(ref: ObjectRef): void {
    const live = this.get(ref);
    if (live) this.pinned.delete(live.metadata.uid ?? '');
  }

  /** core/v1 Events in a namespace, optionally only those about one object name, oldest first. */
  events(namespace: string, involvedName?: string): KubeObject[] {
    return this.client
      .list('v1', 'Event', namespace)
      .filter(
        (e) =>
          involvedName === undefined ||
          (isJsonObject(e.involvedObject) && e.involvedObject.name === involvedName),
      )
      .sort((a, b) =>
        String(a.metadata.name).split('.').pop()!.localeCompare(String(b.metadata.name).split('.').pop()!),
      );
  }

  /** A pod's log text (throws the same errors as the HTTP log endpoint). */
  podLog(namespace: string, name: string, container?: string): string {
    return this.ctx.logs.read(this.client.get('v1', 'Pod', namespace, name), name, container, undefined);
  }

  /** Resolve with the object once predicate(obj) holds (obj undefined = absent); reject after timeoutMs. */
  waitFor(
    ref: ObjectRef,
    predicate: (obj: KubeObject | undefined) => boolean,
    timeoutMs = 10_000,
  ): Promise<KubeObject | undefined> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const obj = this.get(ref);
        if (!predicate(obj)) return false;
        done();
        resolve(obj);
        return true;
      };
      const unsubscribe = this.client.store.subscribe(() => void check());
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${ref.kind} ${ref.namespace ?? ''}/${ref.name}: ${JSON.stringify(this.get(ref)?.status ?? null)}`,
          ),
        );
      }, timeoutMs);
      const done = () => {
        unsubscribe();
        clearTimeout(timer);
      };
      check();
    });
  }

  /** Make a running container of a Pod exit now with `exitCode` (e.g. to make a hook Pod fail). */
  terminatePod(namespace: string, name: string, exitCode: number, container?: string): boolean {
    return this.node.terminate(namespace, name, exitCode, container);
  }

  /** Store CRDs as given (no client-side serialization) and wait until each is Established. */
  async installCrds(crds: readonly KubeObject[], timeoutMs = 10_000): Promise<void> {
    for (const crd of crds) this.put(crd);
    for (const crd of crds) await this.waitForEstablished(crd.metadata.name ?? '', timeoutMs);
  }

  /** Resolve once the CustomResourceDefinition `name` is Established (its kinds are then served). */
  async waitForEstablished(name: string, timeoutMs = 10_000): Promise<void> {
    const ref = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name };
    await this.waitFor(
      ref,
      (crd) =>
        ((crd?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).some(
          (c) => c.type === 'Established' && c.status === 'True',
        ),
      timeoutMs,
    );
  }

  /** Forget the watch history (an etcd compaction): watches from older resourceVersions get 410 Gone. */
  compact(): void {
    this.client.store.compact();
  }

  private require(ref: ObjectRef): KubeObject {
    const live = this.get(ref);
    if (!live) throw new Error(`${ref.kind} ${ref.namespace ?? ''}/${ref.name} not found`);
    return live;
  }
}
