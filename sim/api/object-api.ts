/**
 * The verbs on objects (get, list, create, update, patch in four flavours) with kube-apiserver's request
 * checks: name/namespace agreement between URL and body, generateName, field validation, managedFields.
 * Deletion is in delete-object.ts. Every write ends in the WritePipeline.
 */

import { recordUpdate } from '../apply/managed-fields.js';
import { serverSideApply } from '../apply/server-side-apply.js';
import { applyJsonMergePatch } from '../patch/json-merge-patch.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { clone, isJsonObject, type KubeObject } from '../store/kube-object.js';
import type { ObjectStore } from '../store/object-store.js';
import { findUnknownFields, pruneFields } from '../validation/unknown-fields.js';
import { managerOf, type RequestOptions } from './request-options.js';
import { apiVersionOf, typeKey } from './resource-type.js';
import { fieldMatcher, labelMatcher } from './selectors.js';
import { alreadyExists, badRequest, notFound, StatusError, unsupportedMediaType } from './status-error.js';
import type { CustomResourceType } from './type-registry.js';
import type { WritePipeline } from './write-pipeline.js';

const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface ListQuery {
  labelSelector?: string | null;
  fieldSelector?: string | null;
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function randomSuffix(length = 5): string {
  let out = '';
  for (let i = 0; i < length; i += 1)
    out += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return out;
}

export class ObjectApi {
  private readonly store: ObjectStore;
  private readonly pipeline: WritePipeline;

  constructor(store: ObjectStore, pipeline: WritePipeline) {
    this.store = store;
    this.pipeline = pipeline;
  }

  get(type: CustomResourceType, namespace: string | undefined, name: string): KubeObject {
    const found = this.store.get(typeKey(type), namespace, name);
    if (!found) throw notFound(type, name);
    return found;
  }

  exists(type: CustomResourceType, namespace: string | undefined, name: string): boolean {
    return this.store.has(typeKey(type), namespace, name);
  }

  list(type: CustomResourceType, namespace: string | undefined, query: ListQuery): KubeObject[] {
    return this.scan(type, namespace, query).map((o) => clone(o));
  }

  /** Like `list`, the stored objects themselves (read-only), for an answer serialised at once. */
  scan(type: CustomResourceType, namespace: string | undefined, query: ListQuery): readonly KubeObject[] {
    const labels = labelMatcher(query.labelSelector);
    const fields = fieldMatcher(query.fieldSelector, type);
    return this.store.scan(typeKey(type), namespace).filter((o) => labels(o) && fields(o));
  }

  create(
    type: CustomResourceType,
    namespace: string | undefined,
    body: unknown,
    options: RequestOptions,
  ): KubeObject {
    const obj = this.decode(type, namespace, body, undefined, options);
    const meta = obj.metadata;
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${randomSuffix()}`;
    if (meta.name && this.store.get(typeKey(type), meta.namespace, meta.name))
      throw alreadyExists(type, meta.name);
    recordUpdate(undefined, obj, managerOf(options));
    return this.pipeline.create(type, obj, { dryRun: options.dryRun });
  }

  replace(
    type: CustomResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    options: RequestOptions,
    subresource?: string,
  ): KubeObject {
    const obj = this.decode(type, namespace, body, name, options);
    const live = this.get(type, namespace, name);
    const candidate = subresource === 'status' ? { ...clone(live), status: obj.status } : obj;
    if (subresource === 'status') candidate.metadata.resourceVersion = obj.metadata.resourceVersion;
    candidate.metadata.managedFields = live.metadata.managedFields;
    recordUpdate(live, candidate, managerOf(options), subresource);
    return this.pipeline.update(type, live, candidate, withSub({ dryRun: options.dryRun }, subresource));
  }

  patch(
    type: CustomResourceType,
    namespace: string | undefined,
    name: string,
    contentType: string,
    body: unknown,
    options: RequestOptions,
    subresource?: string,
  ): KubeObject {
    if (contentType === PATCH_TYPES.apply)
      return this.apply(type, namespace, name, body, options, subresource);
    const live = this.get(type, namespace, name);
    const patched = this.applyPatch(type, live, contentType, body);
    if (!isJsonObject(patched) || !isJsonObject(patched.metadata))
      throw badRequest('the patched object has no metadata');
    const obj = patched as KubeObject;
    this.checkUnknownFields(type, obj, options);
    obj.metadata.managedFields = live.metadata.managedFields;
    recordUpdate(live, obj, managerOf(options), subresource);
    return this.pipeline.update(type, live, obj, withSub({ dryRun: options.dryRun }, subresource));
  }

  private applyPatch(
    type: CustomResourceType,
    live: KubeObject,
    contentType: string,
    body: unknown,
  ): unknown {
    if (contentType === PATCH_TYPES.json) return applyJsonPatch(live, body);
    if (contentType === PATCH_TYPES.merge) return applyJsonMergePatch(live, body);
    if (contentType === PATCH_TYPES.strategic && !type.schema) return applyStrategicMergePatch(live, body);
    throw unsupportedMediaType(contentType);
  }

  private apply(
    type: CustomResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    options: RequestOptions,
    subresource?: string,
  ): KubeObject {
    if (!options.fieldManager) {
      throw new StatusError(
        422,
        'Invalid',
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      );
    }
    const config = this.decodeShape(type, namespace, body, name);
    const unknown = findUnknownFields(config, type);
    if (unknown.length > 0) {
      const gvk = `${apiVersionOf(type).includes('/') ? apiVersionOf(type) : `/${apiVersionOf(type)}`}, Kind=${type.kind}`;
      throw badRequest(
        `failed to create typed patch object (${gvk}): ${unknown.map((u) => `.${u}`).join(', ')}: field not declared in schema`,
      );
    }
    const live = this.store.get(typeKey(type), namespace, name);
    if (!live) this.pipeline.assertNamespaceWritable(type, namespace, name);
    const request = { live, config, manager: options.fieldManager, force: options.force };
    const merged = serverSideApply(subresource ? { ...request, subresource } : request);
    merged.metadata.name = name;
    if (namespace !== undefined) merged.metadata.namespace = namespace;
    if (!live) return this.pipeline.create(type, merged, { dryRun: options.dryRun });
    if (config.metadata.resourceVersion) merged.metadata.resourceVersion = config.metadata.resourceVersion;
    else delete merged.metadata.resourceVersion;
    return this.pipeline.update(type, live, merged, withSub({ dryRun: options.dryRun }, subresource));
  }

  /** Body → object with URL/body agreement checks and field validation (create/update). */
  private decode(
    type: CustomResourceType,
    namespace: string | undefined,
    body: unknown,
    name: string | undefined,
    options: RequestOptions,
  ): KubeObject {
    const obj = this.decodeShape(type, namespace, body, name);
    this.checkUnknownFields(type, obj, options);
    return obj;
  }

  private decodeShape(
    type: CustomResourceType,
    namespace: string | undefined,
    body: unknown,
    name: string | undefined,
  ): KubeObject {
    if (!isJsonObject(body))
      throw badRequest('Object cannot be decoded: the request body is not a JSON object');
    const obj = clone(body) as KubeObject;
    if (obj.kind !== undefined && obj.kind !== type.kind) {
      throw badRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(type)}) or kind ${String(obj.kind)} does not match ${type.kind}`,
      );
    }
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersionOf(type)) {
      throw badRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(type)})`,
      );
    }
    obj.apiVersion = apiVersionOf(type);
    obj.kind = type.kind;
    obj.metadata = isJsonObject(obj.metadata) ? obj.metadata : {};
    if (name !== undefined && obj.metadata.name !== undefined && obj.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    if (name !== undefined) obj.metadata.name = name;
    if (type.namespaced && namespace !== undefined) {
      if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
        throw badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      obj.metadata.namespace = namespace;
    } else delete obj.metadata.namespace;
    return obj;
  }

  private checkUnknownFields(type: CustomResourceType, obj: KubeObject, options: RequestOptions): void {
    const unknown = findUnknownFields(obj, type);
    if (unknown.length === 0) return;
    if (options.fieldValidation === 'Strict') {
      throw badRequest(`strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`);
    }
    if (options.fieldValidation === 'Warn')
      options.warnings.push(...unknown.map((u) => `unknown field "${u}"`));
    pruneFields(obj, unknown);
  }
}

function withSub(
  options: { dryRun: boolean },
  subresource: string | undefined,
): { dryRun: boolean; subresource?: string } {
  return subresource ? { ...options, subresource } : options;
}
