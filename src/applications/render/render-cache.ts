/**
 * Rendered manifests by (repository, revision, path, options): an Application whose every source sits at an
 * immutable revision (a git commit, a chart version) renders the same objects each time, so an unchanged revision
 * is rendered once — drift detection renders every automated Application each interval, and a sync renders what
 * the last comparison rendered. The key is the Application's name, project and destination (Helm's release name,
 * the build environment), its sources as written (repository, path, tool options) and each source's resolved
 * revision. Local folders (no revision) are never cached. Bounded: the `maxEntries` most recently used; an entry
 * is handed out as a copy, so a caller changing its objects changes no other caller's.
 */
import type { Application } from '../../domain/index.js';

export interface RenderCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  readonly size: number;
}

/** An LRU of `maxEntries` (default 256) rendered Applications. */
export function createRenderCache<T>(maxEntries = 256): RenderCache<T> {
  const entries = new Map<string, T>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return structuredClone(value);
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, structuredClone(value));
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}

/** The cache key of `app` with each source's resolved revision, or undefined when a source has none (local). */
export function renderKeyOf(
  app: Application,
  revisions: readonly (string | undefined)[],
): string | undefined {
  if (revisions.some((r) => r === undefined || r === '')) return undefined;
  return JSON.stringify([app.name, app.project, app.destination, app.sources ?? [app.source], revisions]);
}
