/**
 * What a deletion says: the sentences of its failures (unconfirmed `Delete=confirm` objects, terminating objects
 * past the time limit), and the TaskRefs its events name (every deleted resource is a prune).
 */
import {
  type KubeObject,
  type ResourceKey,
  resourceKeyOf,
  shortName,
  type TaskRef,
} from '../domain/index.js';

/** `objects` have Delete=confirm and were not confirmed: nothing more is deleted. */
export function unconfirmedMessage(application: string, objects: readonly ResourceKey[]): string {
  const one = objects.length === 1;
  return `${objects.map(shortName).join(', ')} ${one ? 'has' : 'have'} Delete=confirm and ${one ? 'was' : 'were'} not in the confirmed plan; nothing more was deleted. Run /sync delete ${application} again to confirm.`;
}

/** The first five keys by short name, and how many more. */
export function listKeys(keys: readonly ResourceKey[]): string {
  const names = keys.slice(0, 5).map(shortName).join(', ');
  return keys.length > 5 ? `${names} and ${keys.length - 5} more` : names;
}

/** Objects still terminating when the deletion's time limit ran out. */
export function timeoutMessage(timeoutMs: number, terminating: readonly ResourceKey[]): string {
  const names = terminating.slice(0, 5).map(shortName).join(', ');
  const more = terminating.length > 5 ? ` and ${terminating.length - 5} more` : '';
  return `Timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${names}${more} to finish terminating (finalizers still set?); the Application was not removed.`;
}

/** The TaskRef of a deleted (or kept) resource in the deletion's events. */
export function taskRefOfKey(key: ResourceKey): TaskRef {
  return { ...key, isHook: false, isPrune: true };
}

/** The TaskRef of a live object the deletion deletes. */
export function taskRefOf(obj: KubeObject): TaskRef {
  return taskRefOfKey(resourceKeyOf(obj));
}
