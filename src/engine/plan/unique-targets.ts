/**
 * Duplicate detection for desired objects: two manifests for the same group/kind/namespace/name are rejected
 * (Argo CD keeps one and raises a RepeatedResourceWarning; wavesync refuses to guess which one was meant).
 */
import { ManifestError } from '../../domain/index.js';
import type { SourcedObject } from '../sync-task.js';
import { ITEMS_PER_YIELD, runAtOnce, type SlicedWork } from '../time-slice.js';
import { apiVersionParts } from './api-version-parts.js';

/**
 * Throws ManifestError (file and line of the second occurrence, naming the first) when two objects share
 * group, kind, namespace and name. Objects without a name (hooks with only generateName) never clash.
 * `namespace` stands in for objects without one (the destination namespace, '' when unknown).
 */
export function assertUniqueTargets(targets: readonly SourcedObject[], namespace: string): void {
  runAtOnce(uniqueTargetSteps(targets, namespace));
}

/** assertUniqueTargets as SlicedWork (yields every ITEMS_PER_YIELD targets). */
export function* uniqueTargetSteps(targets: readonly SourcedObject[], namespace: string): SlicedWork<void> {
  // Keyed by name alone (a string whose hash is already cached), comparing the rest only on a name clash.
  const byName = new Map<string, SourcedObject | SourcedObject[]>();
  let count = 0;
  for (const target of targets) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    const name = target.object.metadata.name;
    if (!name) continue;
    const seen = byName.get(name);
    if (seen === undefined) {
      byName.set(name, target);
      continue;
    }
    const others = Array.isArray(seen) ? seen : [seen];
    const first = others.find((other) => identityOf(other, namespace) === identityOf(target, namespace));
    if (first !== undefined) throw duplicate(target, first, namespace);
    byName.set(name, [...others, target]);
  }
}

function identityOf({ object }: SourcedObject, namespace: string): string {
  const group = apiVersionParts(object.apiVersion).group;
  return `${group}/${object.kind}/${object.metadata.namespace || namespace}/${object.metadata.name}`;
}

/** `ConfigMap/x`, `Deployment.apps/web in namespace shop`: kubectl's way of naming an object. */
function displayNameOf({ object }: SourcedObject, namespace: string): string {
  const group = apiVersionParts(object.apiVersion).group;
  const ns = object.metadata.namespace || namespace;
  return `${object.kind}${group ? `.${group}` : ''}/${object.metadata.name}${ns ? ` in namespace ${ns}` : ''}`;
}

function duplicate(target: SourcedObject, first: SourcedObject, namespace: string): ManifestError {
  const { file, line } = target.source;
  return new ManifestError(
    file,
    line,
    `duplicate resource ${displayNameOf(target, namespace)}, also defined at ${first.source.file}:${first.source.line}`,
    { fix: 'remove one of the two, or give them different names or namespaces' },
  );
}
