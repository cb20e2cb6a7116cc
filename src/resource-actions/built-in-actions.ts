/**
 * The resource actions Argo CD implements in Go rather than Lua, offered for a kind that has no discovery script:
 * `restart` of a Deployment, StatefulSet or DaemonSet, which does what `kubectl rollout restart` does — sets the pod
 * template's `kubectl.kubernetes.io/restartedAt` annotation to the current time (RFC 3339, UTC, whole seconds), so
 * the controller rolls the Pods.
 */
import type { ImpactedResource, JsonObject, ResourceAction } from './action-results.js';
import { isJsonObject } from './action-results.js';

export const RESTARTED_AT_ANNOTATION = 'kubectl.kubernetes.io/restartedAt';

const RESTARTABLE = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet']);

export interface GoActions {
  names: readonly string[];
  discover(obj: JsonObject): ResourceAction[];
  /** `obj` is the caller's copy: it is changed and returned. */
  run(obj: JsonObject, action: string): ImpactedResource[];
}

function child(parent: JsonObject, key: string): JsonObject {
  const existing = parent[key];
  if (isJsonObject(existing)) return existing;
  const created: JsonObject = {};
  parent[key] = created;
  return created;
}

const restart: GoActions = {
  names: ['restart'],
  discover: () => [{ name: 'restart', disabled: false, iconClass: 'fa fa-fw fa-redo' }],
  run(obj) {
    const template = child(child(obj, 'spec'), 'template');
    const annotations = child(child(template, 'metadata'), 'annotations');
    annotations[RESTARTED_AT_ANNOTATION] = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return [{ operation: 'patch', resource: obj }];
  },
};

/** The Go-implemented actions of `<group>/<Kind>`, if any. */
export function builtInGoActions(key: string): GoActions | undefined {
  return RESTARTABLE.has(key) ? restart : undefined;
}
