/**
 * The structural view of a stored Kubernetes object. The simulator keeps objects as plain JSON (as etcd keeps
 * them serialized) and hands out deep copies, so no caller can mutate the store behind its back.
 */
import type {
  KubeObject as DomainKubeObject,
  ObjectMeta as DomainObjectMeta,
} from '../../src/domain/index.js';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldsV1;
  subresource?: string;
}

/** The `fieldsV1` tree: keys `f:<field>`, `k:<json key>`, `v:<json value>`, and `.` for "the element itself". */
export interface FieldsV1 {
  [key: string]: FieldsV1;
}

export type { OwnerReference } from '../../src/domain/index.js';

/** ObjectMeta with the fields only the API server itself manages. */
export interface ObjectMeta extends DomainObjectMeta {
  deletionGracePeriodSeconds?: number;
  managedFields?: ManagedFieldsEntry[];
}

/** A Kubernetes object as stored: the domain's KubeObject with the server-side metadata. */
export interface KubeObject extends DomainKubeObject {
  metadata: ObjectMeta;
}

/** A JSON object (the shape every decoded request body and nested field map has). */
export type JsonObject = Record<string, unknown>;

/** Deep copy of JSON data (objects here never hold functions, dates or cycles). */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** RFC 3339 timestamp with second precision, as Kubernetes serializes metav1.Time. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
