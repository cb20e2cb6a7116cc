/**
 * How controllers (and the test helpers) talk to the API: the same ObjectApi and delete semantics the HTTP
 * server uses, in-process and synchronous, under one field manager name.
 */
import { deleteObject } from '../api/delete-object.js';
import type { ObjectApi } from '../api/object-api.js';
import type { RequestOptions } from '../api/request-options.js';
import { typeKey } from '../api/resource-type.js';
import { StatusError } from '../api/status-error.js';
import type { CustomResourceType, TypeRegistry } from '../api/type-registry.js';
import type { KubeObject } from '../store/kube-object.js';
import type { ObjectStore } from '../store/object-store.js';

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export class ClusterClient {
  readonly store: ObjectStore;
  readonly registry: TypeRegistry;
  private readonly objects: ObjectApi;
  private readonly manager: string;

  constructor(store: ObjectStore, registry: TypeRegistry, objects: ObjectApi, manager: string) {
    this.store = store;
    this.registry = registry;
    this.objects = objects;
    this.manager = manager;
  }

  typeOf(apiVersion: string, kind: string): CustomResourceType {
    const type = this.registry.findKind(apiVersion, kind);
    if (!type)
      throw new StatusError(404, 'NotFound', `no matches for kind "${kind}" in version "${apiVersion}"`);
    return type;
  }

  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const type = this.registry.findKind(apiVersion, kind);
    return type ? this.store.get(typeKey(type), type.namespaced ? namespace : undefined, name) : undefined;
  }

  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    const type = this.registry.findKind(apiVersion, kind);
    return type ? this.store.list(typeKey(type), namespace) : [];
  }

  create(obj: KubeObject): KubeObject {
    return this.objects.create(
      this.typeOf(obj.apiVersion, obj.kind),
      obj.metadata.namespace,
      obj,
      this.options(),
    );
  }

  /** Replace the object (no resourceVersion precondition: controllers run synchronously, one at a time). */
  update(obj: KubeObject): KubeObject {
    const type = this.typeOf(obj.apiVersion, obj.kind);
    return this.objects.replace(
      type,
      obj.metadata.namespace,
      obj.metadata.name ?? '',
      unversioned(obj),
      this.options(),
    );
  }

  /** Write obj.status through the status subresource (or the main resource for kinds without one). */
  updateStatus(obj: KubeObject): KubeObject {
    const type = this.typeOf(obj.apiVersion, obj.kind);
    const sub = type.subresources.includes('status') ? 'status' : undefined;
    return this.objects.replace(
      type,
      obj.metadata.namespace,
      obj.metadata.name ?? '',
      unversioned(obj),
      this.options(),
      sub,
    );
  }

  /** Delete; a missing object is not an error here (controllers race with users). */
  delete(ref: ObjectRef, propagationPolicy = 'Background'): void {
    const type = this.typeOf(ref.apiVersion, ref.kind);
    try {
      deleteObject(this.store, type, type.namespaced ? ref.namespace : undefined, ref.name, {
        dryRun: false,
        propagationPolicy,
      });
    } catch (error) {
      if (!(error instanceof StatusError && error.code === 404)) throw error;
    }
  }

  private options(): RequestOptions {
    return {
      dryRun: false,
      force: false,
      fieldValidation: 'Ignore',
      fieldManager: this.manager,
      defaultManager: this.manager,
      warnings: [],
    };
  }
}

function unversioned(obj: KubeObject): KubeObject {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
