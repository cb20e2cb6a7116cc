/**
 * Tiny typed readers over an untyped Kubernetes object, with Go's zero values for missing fields (a health check
 * in gitops-engine converts unstructured objects to typed structs, where absent numbers are 0 and absent
 * strings are '').
 */
import type { KubeObject } from '../../domain/index.js';

/** A status condition as Kubernetes writes it. */
export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

type Json = Record<string, unknown>;

function asRecord(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The value at a dotted path, or undefined. */
export function fieldAt(obj: unknown, path: string): unknown {
  let current: unknown = obj;
  for (const part of path.split('.')) {
    const record = asRecord(current);
    if (record === undefined) return undefined;
    current = record[part];
  }
  return current;
}

/** A number field; 0 when absent (Go zero value). */
export function numberAt(obj: unknown, path: string): number {
  const value = fieldAt(obj, path);
  return typeof value === 'number' ? value : 0;
}

/** An optional number field (Go pointer): undefined when absent. */
export function optionalNumberAt(obj: unknown, path: string): number | undefined {
  const value = fieldAt(obj, path);
  return typeof value === 'number' ? value : undefined;
}

/** A string field; '' when absent (Go zero value). */
export function stringAt(obj: unknown, path: string): string {
  const value = fieldAt(obj, path);
  return typeof value === 'string' ? value : '';
}

/** An array field; [] when absent. */
export function arrayAt(obj: unknown, path: string): unknown[] {
  const value = fieldAt(obj, path);
  return Array.isArray(value) ? value : [];
}

/** Normalises one raw condition object. */
export function toCondition(raw: unknown): Condition {
  return {
    type: stringAt(raw, 'type'),
    status: stringAt(raw, 'status'),
    reason: stringAt(raw, 'reason'),
    message: stringAt(raw, 'message'),
  };
}

/** `status.conditions` as Conditions ([] when absent). */
export function conditionsOf(obj: KubeObject): Condition[] {
  return arrayAt(obj, 'status.conditions').map(toCondition);
}

/** `metadata.generation`, 0 when absent. */
export function generationOf(obj: KubeObject): number {
  return typeof obj.metadata?.generation === 'number' ? obj.metadata.generation : 0;
}
