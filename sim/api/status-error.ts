/**
 * API errors in the exact `Status` shape kube-apiserver returns (k8s.io/apimachinery/pkg/api/errors).
 */
import { qualifiedKind, qualifiedResource, type ResourceType } from './resource-type.js';

export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details?: StatusDetails;

  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.name = 'StatusError';
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) status.details = this.details;
    return status;
  }
}

function resourceDetails(type: ResourceType, name: string): StatusDetails {
  return type.group === '' ? { name, kind: type.plural } : { name, group: type.group, kind: type.plural };
}

/** `configmaps "x" not found` (404 NotFound). */
export function notFound(type: ResourceType, name: string): StatusError {
  return new StatusError(
    404,
    'NotFound',
    `${qualifiedResource(type)} "${name}" not found`,
    resourceDetails(type, name),
  );
}

/** `namespaces "x" not found` — what a write into a missing namespace answers. */
export function namespaceNotFound(namespace: string): StatusError {
  return new StatusError(404, 'NotFound', `namespaces "${namespace}" not found`, {
    name: namespace,
    kind: 'namespaces',
  });
}

/** The 404 for a path no served resource matches. */
export function resourceNotServed(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function alreadyExists(type: ResourceType, name: string): StatusError {
  return new StatusError(
    409,
    'AlreadyExists',
    `${qualifiedResource(type)} "${name}" already exists`,
    resourceDetails(type, name),
  );
}

/** Optimistic-concurrency failure (stale resourceVersion), 409 Conflict. */
export function conflict(type: ResourceType, name: string): StatusError {
  const message = `Operation cannot be fulfilled on ${qualifiedResource(type)} "${name}": the object has been modified; please apply your changes to the latest version and try again`;
  return new StatusError(409, 'Conflict', message, resourceDetails(type, name));
}

/** `Kind "name" is invalid: field: message, field: message` (422 Invalid). */
export function invalid(type: ResourceType, name: string, causes: StatusCause[]): StatusError {
  const list = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const joined = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  const details: StatusDetails = { name, kind: type.kind, causes };
  if (type.group !== '') details.group = type.group;
  return new StatusError(422, 'Invalid', `${qualifiedKind(type)} "${name}" is invalid: ${joined}`, details);
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function forbidden(type: ResourceType, name: string, why: string): StatusError {
  return new StatusError(
    403,
    'Forbidden',
    `${qualifiedResource(type)} "${name}" is forbidden: ${why}`,
    resourceDetails(type, name),
  );
}

export function methodNotAllowed(): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );
}

export function unsupportedMediaType(contentType: string): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got ${contentType})`,
    {},
  );
}

/** The Status inside a watch ERROR event for a resourceVersion older than the history (410 Gone / Expired). */
export function expired(resourceVersion: string): StatusError {
  return new StatusError(410, 'Expired', `too old resource version: ${resourceVersion}`);
}
