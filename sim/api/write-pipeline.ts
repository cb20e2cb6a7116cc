/**
 * The common tail of every write (create, update, patch, apply, status): identity and immutable metadata kept
 * from the stored object, status preserved across main-resource writes, defaults, generation bump on spec
 * change, validation (422 Invalid), resourceVersion precondition (409), namespace checks (404/403), and
 * finally persistence unless dry-run. An object marked for deletion whose finalizers are all cleared is removed.
 */
import { randomUUID } from 'node:crypto';
import {
  clone,
  isJsonObject,
  type JsonObject,
  jsonEqual,
  type KubeObject,
  timestamp,
} from '../store/kube-object.js';
import type { ObjectStore } from '../store/object-store.js';
import { applyDefaults } from '../validation/defaults.js';
import { validateImmutable } from '../validation/immutable-fields.js';
import { generateJobSelector } from '../validation/job-selector.js';
import { validateObjectMeta } from '../validation/metadata-validation.js';
import { validateSpec } from '../validation/spec-validation.js';
import { apiVersionOf, typeKey } from './resource-type.js';
import { badRequest, conflict, forbidden, invalid, namespaceNotFound } from './status-error.js';
import type { CustomResourceType } from './type-registry.js';

export interface WriteOptions {
  dryRun: boolean;
  subresource?: string;
}

const NAMESPACES_KEY = '/namespaces';

export class WritePipeline {
  private nextIp = 10;
  private readonly store: ObjectStore;

  constructor(store: ObjectStore) {
    this.store = store;
  }

  /** Check that a namespace exists and is not terminating before creating something in it. */
  assertNamespaceWritable(type: CustomResourceType, namespace: string | undefined, name: string): void {
    if (!type.namespaced || namespace === undefined) return;
    const ns = this.store.peek(NAMESPACES_KEY, undefined, namespace);
    if (!ns) throw namespaceNotFound(namespace);
    if (ns.metadata.deletionTimestamp) {
      throw forbidden(
        type,
        name,
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
    }
  }

  create(type: CustomResourceType, candidate: KubeObject, options: WriteOptions): KubeObject {
    const obj = clone(candidate);
    obj.apiVersion = apiVersionOf(type);
    obj.kind = type.kind;
    mergeStringData(type, obj);
    const meta = obj.metadata;
    meta.uid = randomUUID();
    meta.creationTimestamp = timestamp();
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    if (type.hasGeneration) meta.generation = 1;
    else delete meta.generation;
    if (type.subresources.includes('status')) delete obj.status;
    this.assertNamespaceWritable(type, meta.namespace, meta.name ?? '');
    applyDefaults(obj, () => this.allocateIp());
    if (obj.kind === 'Job' && type.group === 'batch') generateJobSelector(obj);
    this.validate(type, obj);
    return options.dryRun ? obj : this.store.put(typeKey(type), obj);
  }

  update(
    type: CustomResourceType,
    live: KubeObject,
    candidate: KubeObject,
    options: WriteOptions,
  ): KubeObject {
    const obj = clone(candidate);
    const expected = candidate.metadata.resourceVersion;
    if (expected && expected !== live.metadata.resourceVersion)
      throw conflict(type, live.metadata.name ?? '');
    obj.apiVersion = apiVersionOf(type);
    obj.kind = type.kind;
    mergeStringData(type, obj);
    this.keepSystemMetadata(live, obj);
    this.keepOtherScope(type, live, obj, options.subresource);
    if (obj.kind === 'Service') keepClusterIp(live, obj);
    applyDefaults(obj, () => this.allocateIp());
    if (type.hasGeneration && specChanged(live, obj))
      obj.metadata.generation = (live.metadata.generation ?? 0) + 1;
    this.validate(type, obj, live);
    if (options.dryRun) return obj;
    if (jsonEqual(stripVersion(live), stripVersion(obj))) return live;
    if (obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0) {
      return this.store.remove(typeKey(type), obj.metadata.namespace, obj.metadata.name ?? '') ?? obj;
    }
    return this.store.put(typeKey(type), obj);
  }

  private keepSystemMetadata(live: KubeObject, obj: KubeObject): void {
    const meta = obj.metadata;
    for (const key of [
      'uid',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'generation',
      'namespace',
      'name',
    ] as const) {
      if (live.metadata[key] === undefined) delete meta[key];
      else (meta as Record<string, unknown>)[key] = live.metadata[key];
    }
    if (meta.deletionTimestamp) {
      const before = new Set(live.metadata.finalizers ?? []);
      meta.finalizers = (meta.finalizers ?? []).filter((f) => before.has(f));
    }
  }

  /** Main-resource writes keep status; status writes keep everything but status (and metadata changes). */
  private keepOtherScope(
    type: CustomResourceType,
    live: KubeObject,
    obj: KubeObject,
    subresource?: string,
  ): void {
    if (subresource === 'status') {
      const status = obj.status;
      for (const key of Object.keys(obj))
        if (!['apiVersion', 'kind', 'metadata'].includes(key)) delete obj[key];
      for (const [key, value] of Object.entries(live))
        if (!['apiVersion', 'kind', 'metadata', 'status'].includes(key)) obj[key] = clone(value);
      if (status !== undefined) obj.status = status;
      const managed = obj.metadata.managedFields;
      obj.metadata = clone(live.metadata);
      if (managed) obj.metadata.managedFields = managed;
      return;
    }
    if (type.subresources.includes('status')) {
      if (live.status === undefined) delete obj.status;
      else obj.status = clone(live.status);
    }
  }

  private validate(type: CustomResourceType, obj: KubeObject, live?: KubeObject): void {
    rejectUndecodableSecret(obj);
    const causes = [...validateObjectMeta(obj.metadata, type.kind), ...validateSpec(obj)];
    if (live) causes.push(...validateImmutable(live, obj));
    if (causes.length > 0) throw invalid(type, obj.metadata.name ?? obj.metadata.generateName ?? '', causes);
  }

  private allocateIp(): string {
    this.nextIp += 1;
    return `10.96.${Math.floor(this.nextIp / 250)}.${this.nextIp % 250}`;
  }
}

/**
 * A Secret's `stringData` is write-only (core/v1 Convert_v1_Secret_To_core_Secret): each value is merged into `data`
 * as base64 (over a `data` key of the same name) and `stringData` itself is never stored nor returned. A `data` value
 * that is not base64 is refused first (rejectUndecodableSecret), as the decoding comes before the conversion.
 */
function mergeStringData(type: CustomResourceType, obj: KubeObject): void {
  if (type.group !== '' || type.kind !== 'Secret' || !('stringData' in obj)) return;
  rejectUndecodableSecret(obj);
  const stringData = obj.stringData;
  delete obj.stringData;
  if (!isJsonObject(stringData)) return;
  const data = isJsonObject(obj.data) ? obj.data : {};
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value !== 'string') {
      const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
      throw badRequest(
        `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal ${got === 'boolean' ? 'bool' : got} into Go struct field Secret.stringData of type string`,
      );
    }
    data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
  obj.data = data;
}

/**
 * A Secret's `data` values are bytes ([]byte), sent as standard base64: the real API server fails to decode a value
 * that is not, before any validation, with 400 BadRequest `Secret in version "v1" cannot be handled as a Secret:
 * illegal base64 data at input byte N` (Go's encoding/base64: StdEncoding with padding; \r and \n skipped).
 */
function rejectUndecodableSecret(obj: KubeObject): void {
  if (obj.kind !== 'Secret' || obj.apiVersion !== 'v1' || !isJsonObject(obj.data)) return;
  for (const value of Object.values(obj.data)) {
    const at = illegalBase64At(value);
    if (at !== undefined)
      throw badRequest(
        `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${at}`,
      );
  }
}

/** The input byte where Go's base64.StdEncoding fails to decode `value`, or undefined when it decodes. */
function illegalBase64At(value: unknown): number | undefined {
  if (typeof value !== 'string') return 0;
  const text = value.replace(/[\r\n]/g, '');
  const bad = text.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) return bad;
  const padding = text.indexOf('=');
  if (padding >= 0 && !/^={1,2}$/.test(text.slice(padding))) return padding;
  if (text.length % 4 !== 0) return text.length - (text.length % 4);
  return undefined;
}

function keepClusterIp(live: KubeObject, obj: KubeObject): void {
  const oldSpec = isJsonObject(live.spec) ? live.spec : {};
  const spec = isJsonObject(obj.spec) ? obj.spec : undefined;
  if (spec && spec.clusterIP === undefined && oldSpec.clusterIP !== undefined) {
    spec.clusterIP = oldSpec.clusterIP;
    spec.clusterIPs = oldSpec.clusterIPs;
  }
}

/** Anything but metadata and status changed (what bumps metadata.generation). */
function specChanged(live: KubeObject, obj: KubeObject): boolean {
  const strip = (o: KubeObject): JsonObject => {
    const { metadata: _m, status: _s, ...rest } = o;
    return rest;
  };
  return !jsonEqual(strip(live), strip(obj));
}

function stripVersion(obj: KubeObject): KubeObject {
  const copy = clone(obj);
  delete copy.metadata.resourceVersion;
  for (const m of copy.metadata.managedFields ?? []) m.time = '';
  return copy;
}
