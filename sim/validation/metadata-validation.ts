/**
 * Validation of object names, labels and annotations with kube-apiserver's exact messages
 * (k8s.io/apimachinery/pkg/util/validation and api/validation/objectmeta.go).
 */
import {
  DNS1123_SUBDOMAIN,
  NAME_MESSAGES,
  type NameRule,
  nameProblems,
  nameRuleOf,
} from '../../src/domain/index.js';
import type { StatusCause } from '../api/status-error.js';
import type { ObjectMeta } from '../store/kube-object.js';

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const MESSAGES = {
  ...NAME_MESSAGES,
  namePart:
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  labelValue:
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
};

export function invalidValue(field: string, value: unknown, detail: string): StatusCause {
  const shown = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${shown}: ${detail}`, field };
}

export function required(field: string, detail?: string): StatusCause {
  return {
    reason: 'FieldValueRequired',
    message: detail ? `Required value: ${detail}` : 'Required value',
    field,
  };
}

export function validateName(name: string, rule: NameRule, field = 'metadata.name'): StatusCause[] {
  return nameProblems(name, rule).map((detail) => invalidValue(field, name, detail));
}

/** A label/annotation key: optional DNS-subdomain prefix and a qualified name part. */
function validateQualifiedName(key: string, field: string): StatusCause[] {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  const causes: StatusCause[] = [];
  if (prefix !== undefined && (prefix.length === 0 || !DNS1123_SUBDOMAIN.test(prefix))) {
    causes.push(invalidValue(field, key, `prefix part ${MESSAGES.subdomain}`));
  }
  if (name.length === 0) causes.push(invalidValue(field, key, 'name part must be non-empty'));
  else if (name.length > 63)
    causes.push(invalidValue(field, key, 'name part must be no more than 63 characters'));
  else if (!QUALIFIED_NAME.test(name)) causes.push(invalidValue(field, key, MESSAGES.namePart));
  return causes;
}

export function validateLabels(labels: unknown, field: string): StatusCause[] {
  if (labels === undefined || labels === null) return [];
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(labels as Record<string, unknown>)) {
    causes.push(...validateQualifiedName(key, field));
    const text = String(value ?? '');
    if (typeof value !== 'string') causes.push(invalidValue(field, value, 'label values must be strings'));
    else if (text.length > 63) causes.push(invalidValue(field, text, 'must be no more than 63 characters'));
    else if (!LABEL_VALUE.test(text)) causes.push(invalidValue(field, text, MESSAGES.labelValue));
  }
  return causes;
}

function validateAnnotations(annotations: unknown): StatusCause[] {
  if (annotations === undefined || annotations === null) return [];
  const entries = Object.entries(annotations as Record<string, unknown>);
  const causes = entries.flatMap(([key]) => validateQualifiedName(key.toLowerCase(), 'metadata.annotations'));
  const size = entries.reduce((n, [k, v]) => n + k.length + String(v).length, 0);
  if (size > 262144)
    causes.push({
      reason: 'FieldValueTooLong',
      message: 'Too long: must have at most 262144 bytes',
      field: 'metadata.annotations',
    });
  return causes;
}

export function validateObjectMeta(meta: ObjectMeta, kind: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!meta.name) causes.push(required('metadata.name', 'name or generateName is required'));
  else causes.push(...validateName(meta.name, nameRuleOf(kind)));
  causes.push(...validateLabels(meta.labels, 'metadata.labels'));
  causes.push(...validateAnnotations(meta.annotations));
  for (const finalizer of meta.finalizers ?? []) {
    if (!finalizer.includes('/') && !['kubernetes', 'orphan', 'foregroundDeletion'].includes(finalizer)) {
      causes.push(...validateQualifiedName(finalizer, 'metadata.finalizers'));
    }
  }
  return causes;
}
