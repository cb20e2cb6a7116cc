/**
 * Rendered manifests by (repository, revision, path, options): an Application whose every source sits at an
 * immutable revision (a git commit, a chart version) or is a local Directory-type folder (keyed by its content:
 * ./local-folder-keys.ts) renders the same objects each time, so an unchanged revision is rendered once — drift
 * detection renders every automated Application each interval, and a sync renders what the last comparison
 * rendered. The key is the Application's name, project and destination (Helm's release name, the build
 * environment), its sources as written (repository, path, tool options) and each source's resolved revision (or a
 * local folder's content key). Other local sources (Kustomize, Helm, a plugin: they may read any file) are never
 * cached. Bounded in memory: entries are kept serialised (v8.serialize: a compact buffer, outside the JS heap), the
 * most recently used up to `maxBytes` of them and `maxEntries`; an entry is handed out as a fresh copy, so a caller
 * changing its objects changes no other caller's.
 */
import { deserialize, serialize } from 'node:v8';
import type { Application } from '../../domain/index.js';

export interface RenderCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  readonly size: number;
}

export interface RenderCacheOptions {
  /** Most entries kept; default 10,000. */
  maxEntries?: number;
  /** Most bytes of serialised entries kept; default 64 MiB. An entry larger than that is not kept. */
  maxBytes?: number;
}

/** An LRU of rendered Applications, bounded by `maxEntries` and `maxBytes`. */
export function createRenderCache<T>(options: RenderCacheOptions = {}): RenderCache<T> & {
  readonly bytes: number;
} {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const entries = new Map<string, Buffer>();
  let bytes = 0;
  const remove = (key: string) => {
    const old = entries.get(key);
    if (old === undefined) return;
    entries.delete(key);
    bytes -= old.length;
  };
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return deserialize(value) as T;
    },
    set(key, value) {
      remove(key);
      const buffer = serialize(value);
      if (buffer.length > maxBytes) return;
      entries.set(key, buffer);
      bytes += buffer.length;
      while (entries.size > maxEntries || bytes > maxBytes) remove(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/**
 * The cache key of `app` with each source's resolved revision (a local Directory folder's content key), or
 * undefined when a source has none (another local source).
 */
export function renderKeyOf(
  app: Application,
  revisions: readonly (string | undefined)[],
): string | undefined {
  if (revisions.some((r) => r === undefined || r === '')) return undefined;
  return JSON.stringify([app.name, app.project, app.destination, app.sources ?? [app.source], revisions]);
}
