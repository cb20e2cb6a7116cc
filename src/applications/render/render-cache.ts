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
import { TimeSlice } from '../../engine/index.js';

/** A rendered Application as the cache sees it: its objects (`targets`, any number) and small fields. */
export interface Rendered {
  readonly targets: readonly unknown[];
}

export interface RenderCache<T extends Rendered> {
  /** A fresh copy of the entry, made in `slice`'s time slices (default its own). */
  get(key: string, slice?: TimeSlice): Promise<T | undefined>;
  /** Keep a copy of `value`, made in `slice`'s time slices (default its own). */
  set(key: string, value: T, slice?: TimeSlice): Promise<void>;
  readonly size: number;
}

export interface RenderCacheOptions {
  /** Most entries kept; default 10,000. */
  maxEntries?: number;
  /** Most bytes of serialised entries kept; default 64 MiB. An entry larger than that is not kept. */
  maxBytes?: number;
}

/**
 * Objects serialised (or read back) in one piece: v8.serialize of 50,000 ConfigMaps was ~0.2 s of one thread's
 * event loop (serve's worker after its render, the bot after drift's), so an entry is kept as its small fields and
 * its objects in chunks of this many, between which the slice may pause.
 */
const TARGETS_PER_CHUNK = 500;

/** An LRU of rendered Applications, bounded by `maxEntries` and `maxBytes`. */
export function createRenderCache<T extends Rendered>(
  options: RenderCacheOptions = {},
): RenderCache<T> & {
  readonly bytes: number;
} {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  /** Per key: the entry without its objects, then its objects in chunks. */
  const entries = new Map<string, { buffers: Buffer[]; bytes: number }>();
  let bytes = 0;
  const remove = (key: string) => {
    const old = entries.get(key);
    if (old === undefined) return;
    entries.delete(key);
    bytes -= old.bytes;
  };
  return {
    async get(key, slice = new TimeSlice()) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      const [head, ...chunks] = entry.buffers;
      const value = deserialize(head!) as T & { targets: unknown[] };
      for (const chunk of chunks) {
        if (slice.due()) await slice.pause();
        for (const target of deserialize(chunk) as unknown[]) value.targets.push(target);
      }
      return value;
    },
    async set(key, value, slice = new TimeSlice()) {
      const buffers = [serialize({ ...value, targets: [] })];
      let size = buffers[0]!.length;
      for (let i = 0; i < value.targets.length && size <= maxBytes; i += TARGETS_PER_CHUNK) {
        if (slice.due()) await slice.pause();
        const chunk = serialize(value.targets.slice(i, i + TARGETS_PER_CHUNK));
        buffers.push(chunk);
        size += chunk.length;
      }
      remove(key);
      if (size > maxBytes) return;
      entries.set(key, { buffers, bytes: size });
      bytes += size;
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
