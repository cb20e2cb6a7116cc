/**
 * The command line's on-disk cache of parsed manifest files (issue 32): a re-sync of an unchanged file skips the
 * YAML parse. One entry per file, named by the SHA-256 of a format tag, the file's name as messages give it and
 * exactly the text parsed; it holds what parseManifests returned (objects and warnings, in order), written with
 * `v8.serialize`. The key is the content itself, so an entry is never stale; a file that fails to parse is never
 * stored (the error is thrown by the parse, as without the cache).
 *
 * Where: `$WAVESYNC_CACHE_DIR/manifests`, else `$XDG_CACHE_HOME/wavesync/manifests`, else
 * `~/.cache/wavesync/manifests`. Off with `WAVESYNC_MANIFEST_CACHE=off` (or `0`, `false`). Writes go to a temporary
 * file renamed into place; after writing, the oldest entries (by modification time; a hit refreshes it) are removed
 * until the folder holds at most MANIFEST_CACHE_MAX_BYTES. A cache that cannot be read, holds a corrupt entry, or
 * cannot be written is ignored — the file is parsed — and said once, with `--verbose` or LOG_LEVEL=debug.
 */
import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import {
  type LoadedManifests,
  loadManifests,
  type ParsedManifests,
  parseManifests,
} from '../applications/manifests/index.js';
import { packageVersion } from '../package-info.js';
import { isVerbose } from './command-io.js';

/**
 * Bump when what a parse returns for the same text changes (the YAML rules of parse-manifests.ts, kube-object-of.ts,
 * the `yaml` package, the shape of ParsedManifests): entries under another tag never match. The tag also holds
 * wavesync's version and the time the running build was written (buildStamp).
 */
const MANIFEST_CACHE_FORMAT = 1;

/** The folder's bound: past it, the oldest entries are removed after a write. */
const MANIFEST_CACHE_MAX_BYTES = 64 * 2 ** 20;

/** Parses one file's text; the parse outcome, or throws as parseManifests does. */
type ParseManifestFile = (text: string, file: string) => Promise<ParsedManifests>;

export interface ManifestParseCacheOptions {
  /** The cache folder (default: manifestCacheDir()). */
  dir?: string;
  /** Default MANIFEST_CACHE_MAX_BYTES. */
  maxBytes?: number;
  /** Told once why the cache was ignored (default: a `debug:` line on stderr when verbose). */
  debug?: (message: string) => void;
  /** The format tag (default: wavesync's version and MANIFEST_CACHE_FORMAT); tests change it. */
  tag?: string;
}

export interface ManifestParseCache {
  parse: ParseManifestFile;
  /** Waits for the entries being written, then enforces the bound. */
  flush: () => Promise<void>;
  /** Files answered from the cache and files parsed (the cache off: neither counts). */
  readonly stats: { hits: number; misses: number };
}

/** The cache folder from the environment, or undefined when the cache is turned off. */
export function manifestCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (/^(off|0|false|no)$/i.test(env.WAVESYNC_MANIFEST_CACHE ?? '')) return undefined;
  if (env.WAVESYNC_CACHE_DIR) return path.join(env.WAVESYNC_CACHE_DIR, 'manifests');
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : path.join(homedir(), '.cache');
  return path.join(base, 'wavesync', 'manifests');
}

/** What an entry holds: its own key (a file renamed or cut short is not taken for another) and the outcome. */
interface Entry {
  key: string;
  parsed: ParsedManifests;
}

/**
 * A parse through the cache. With the cache off (no folder), the plain parse. Call `flush()` after the last parse:
 * it waits for the writes and enforces the bound.
 */
export function manifestParseCache(options: ManifestParseCacheOptions = {}): ManifestParseCache {
  const dir = 'dir' in options ? options.dir : manifestCacheDir();
  const stats = { hits: 0, misses: 0 };
  if (dir === undefined) {
    return { parse: async (text, file) => parseManifests(text, file), flush: async () => {}, stats };
  }
  const maxBytes = options.maxBytes ?? MANIFEST_CACHE_MAX_BYTES;
  const tag =
    options.tag ?? `wavesync ${packageVersion()} ${buildStamp()} manifests ${MANIFEST_CACHE_FORMAT}`;
  let told = false;
  const ignored = (why: string, error?: unknown) => {
    if (told) return;
    told = true;
    const reason = error instanceof Error ? `: ${error.message}` : '';
    (options.debug ?? verboseDebug)(`manifest cache ${dir} ignored: ${why}${reason}`);
  };
  const writes: Promise<boolean>[] = [];

  const parse: ParseManifestFile = async (text, file) => {
    const key = createHash('sha256').update(`${tag}\0${file}\0`).update(text).digest('hex');
    const entryPath = path.join(dir, `${key}.v8`);
    const hit = await readEntry(entryPath, key).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') ignored(`cannot read ${path.basename(entryPath)}`, error);
      return undefined;
    });
    if (hit !== undefined) {
      stats.hits++;
      const now = new Date();
      await utimes(entryPath, now, now).catch(() => {});
      return hit;
    }
    stats.misses++;
    const parsed = parseManifests(text, file); // throws for a bad file: nothing is stored
    writes.push(
      writeEntry(dir, entryPath, { key, parsed }).then(
        () => true,
        (error: unknown) => {
          ignored('cannot write', error);
          return false;
        },
      ),
    );
    return parsed;
  };

  const flush = async () => {
    const written = await Promise.all(writes.splice(0));
    if (!written.includes(true)) return;
    await enforceBound(dir, maxBytes).catch((error: unknown) => ignored('cannot enforce its bound', error));
  };
  return { parse, flush, stats };
}

/**
 * When the code running was written: in a built checkout every `npm run build` rewrites the bundle's files, so a
 * rebuild with other parse rules and the same version never meets an older build's entries. (Under tsx, in tests,
 * this is the source file's; vitest.config.ts gives each test run a cache folder of its own.)
 */
function buildStamp(): string {
  try {
    return String(statSync(fileURLToPath(import.meta.url)).mtimeMs);
  } catch {
    return 'unknown';
  }
}

let verboseTold = false;
function verboseDebug(message: string): void {
  if (verboseTold || !isVerbose()) return;
  verboseTold = true;
  process.stderr.write(`debug: ${message}\n`);
}

async function readEntry(entryPath: string, key: string): Promise<ParsedManifests | undefined> {
  const entry = deserialize(await readFile(entryPath)) as Partial<Entry> | null;
  const parsed = entry?.parsed;
  if (entry?.key !== key || !Array.isArray(parsed?.objects) || !Array.isArray(parsed.warnings)) {
    throw new Error('not an entry of this key');
  }
  return parsed;
}

async function writeEntry(dir: string, entryPath: string, entry: Entry): Promise<void> {
  const data = serialize(entry);
  await mkdir(dir, { recursive: true });
  const temp = `${entryPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, entryPath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Removes the oldest entries (and stray temporary files) until the folder holds at most `maxBytes`. */
async function enforceBound(dir: string, maxBytes: number): Promise<void> {
  const names = await readdir(dir);
  const files = await Promise.all(
    names.map(async (name) => {
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      return info?.isFile() ? { name, size: info.size, mtime: info.mtimeMs } : undefined;
    }),
  );
  const entries = files.filter((f) => f !== undefined).sort((a, b) => b.mtime - a.mtime);
  let total = 0;
  for (const entry of entries) {
    total += entry.size;
    if (total > maxBytes) await rm(path.join(dir, entry.name), { force: true });
  }
}

/** loadManifests with the on-disk parse cache (as the environment configures it); the writes are done on return. */
export async function loadManifestsCached(
  target: string,
  options: ManifestParseCacheOptions = {},
): Promise<LoadedManifests> {
  const cache = manifestParseCache(options);
  try {
    return await loadManifests(target, { parse: cache.parse });
  } finally {
    await cache.flush();
  }
}
