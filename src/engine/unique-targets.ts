/**
 * Duplicate detection for desired objects: two manifests for the same group/kind/namespace/name are rejected
 * (Argo CD keeps one and raises a RepeatedResourceWarning; wavesync refuses to guess which one was meant).
 */
import { ManifestError, resourceKeyOf } from '../domain/index.js';
import type { SourcedObject } from './sync-task.js';

/**
 * Throws ManifestError (file and line of the second occurrence, naming the first) when two objects share
 * group, kind, namespace and name. Objects without a name (hooks with only generateName) never clash.
 * `namespace` stands in for objects without one (the destination namespace, '' when unknown).
 */
export function assertUniqueTargets(targets: readonly SourcedObject[], namespace: string): void {
  const seen = new Map<string, SourcedObject>();
  for (const target of targets) {
    const key = resourceKeyOf(target.object);
    if (key.name === '') continue;
    key.namespace ||= namespace;
    const id = `${key.group}/${key.kind}/${key.namespace}/${key.name}`;
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, target);
      continue;
    }
    const { file, line } = target.source;
    throw new ManifestError(
      file,
      line,
      `duplicate resource ${id} (also defined at ${first.source.file}:${first.source.line})`,
    );
  }
}
