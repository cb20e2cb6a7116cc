import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { serialize } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadManifests, parseManifests } from '../applications/manifests/index.js';
import { ManifestError } from '../domain/index.js';
import { loadManifestsCached, manifestCacheDir, manifestParseCache } from './manifest-parse-cache.js';

/** YAML 1.1 as go-yaml v2 reads it, a List, a comment-only document and two YAML warnings. */
const TEXT = [
  '%FOO bar',
  '---',
  'apiVersion: v1',
  'kind: Secret',
  'metadata: {name: s, annotations: {when: 2024-01-01, ports: 8080:80}}',
  'data: {mode: 0644, a: yes, b: no, on: y, hex: 0x1F, go: 0o17, big: 1_000, x: !foo bar}',
  '---',
  '# only a comment',
  '---',
  'apiVersion: v1',
  'kind: List',
  'items:',
  '  - apiVersion: v1',
  '    kind: ConfigMap',
  '    metadata: {name: c}',
  '    data: {enabled: "yes"}',
  '  - apiVersion: v1',
  '    kind: ServiceAccount',
  '    metadata: {name: a}',
].join('\n');

describe('src/cli/manifest-parse-cache', () => {
  let work: string;
  let dir: string;
  let told: string[];
  /** Every cache a test made: flushed before its folder is removed, so no write of a miss outlives the test. */
  let made: ReturnType<typeof manifestParseCache>[];
  const cache = (extra: { maxBytes?: number; dir?: string } = {}) => {
    const one = manifestParseCache({ dir, debug: (message) => told.push(message), ...extra });
    made.push(one);
    return one;
  };

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'parse-cache-'));
    dir = path.join(work, 'manifests');
    told = [];
    made = [];
  });
  afterEach(async () => {
    // A miss is written in the background until flush(); removing the folder under a write failed with ENOTEMPTY.
    await Promise.all(made.map((each) => each.flush()));
    await rm(work, { recursive: true, force: true });
  });

  it('answers an unchanged file from the cache with exactly what the parse returns', async () => {
    const parsed = parseManifests(TEXT, 'app/all.yaml');
    expect(parsed.objects[0]?.object.data).toEqual({
      mode: 420,
      a: true,
      b: false,
      true: true,
      hex: 31,
      go: 15,
      big: 1000,
      x: 'bar',
    });
    expect(parsed.warnings.map((w) => w.message)).toEqual([
      'YAML: Unknown directive %FOO',
      'YAML: Unresolved tag: !foo',
    ]);

    const first = cache();
    expect(await first.parse(TEXT, 'app/all.yaml')).toStrictEqual(parsed);
    await first.flush();
    expect(first.stats).toEqual({ hits: 0, misses: 1 });

    const second = cache();
    const hit = await second.parse(TEXT, 'app/all.yaml');
    expect(second.stats).toEqual({ hits: 1, misses: 0 });
    expect(hit).toStrictEqual(parsed);
    expect(hit.objects.map((o) => o.source)).toEqual(parsed.objects.map((o) => o.source));
    expect(told).toEqual([]);
  });

  it('gives back what v8 cannot confuse with JSON: __proto__ keys, binary, sets, ordered maps, NaN, -0, merges', async () => {
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: odd}',
      'data: {__proto__: {x: "1"}, b: !!binary aGVsbG8=, s: !!set {a, b}, o: !!omap [a: 1], nan: .nan, i: -.inf,',
      '  z: -0.0, m: &x {k: v}, mm: {<<: *x, j: w}}',
    ].join('\n');
    const first = cache();
    await first.parse(text, 'odd.yaml');
    await first.flush();
    const second = cache();
    const hit = await second.parse(text, 'odd.yaml');
    expect(second.stats.hits).toBe(1);
    expect(hit).toStrictEqual(parseManifests(text, 'odd.yaml'));
    expect(Object.keys(hit.objects[0]?.object.data ?? {})).toContain('__proto__');
  });

  it('misses a changed file, and the same text under another name', async () => {
    const first = cache();
    await first.parse(TEXT, 'a.yaml');
    await first.flush();

    const second = cache();
    const changed = TEXT.replace('mode: 0644', 'mode: 0600');
    expect((await second.parse(changed, 'a.yaml')).objects[0]?.object.data).toMatchObject({ mode: 384 });
    expect((await second.parse(TEXT, 'b.yaml')).objects[0]?.source.file).toBe('b.yaml');
    expect(second.stats).toEqual({ hits: 0, misses: 2 });
  });

  it('never stores a file that fails to parse: its error is thrown each time', async () => {
    const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {enabled: yes}\n';
    const message = (() => {
      try {
        parseManifests(bad, 'bad.yaml');
      } catch (error) {
        return (error as ManifestError).message;
      }
    })();
    expect(message).toContain('quote it');
    for (let run = 0; run < 2; run++) {
      const each = cache();
      const error = await each.parse(bad, 'bad.yaml').catch((e: unknown) => e);
      await each.flush();
      expect(error).toBeInstanceOf(ManifestError);
      expect((error as ManifestError).message).toBe(message);
      expect(each.stats).toEqual({ hits: 0, misses: 1 });
    }
    expect(await readdir(dir).catch(() => [])).toEqual([]);
  });

  it('parses instead when an entry is corrupt or not the entry of its key, and says so once', async () => {
    const first = cache();
    await first.parse(TEXT, 'a.yaml');
    await first.flush();
    const [name] = await readdir(dir);
    const entry = path.join(dir, name!);

    await writeFile(entry, 'not v8 at all');
    const second = cache();
    expect(await second.parse(TEXT, 'a.yaml')).toStrictEqual(parseManifests(TEXT, 'a.yaml'));
    expect(await second.parse(TEXT, 'a.yaml')).toStrictEqual(parseManifests(TEXT, 'a.yaml'));
    await second.flush();
    expect(second.stats).toEqual({ hits: 0, misses: 2 });
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('ignored');

    // The parse rewrote the entry: the next run hits again.
    const third = cache();
    await third.parse(TEXT, 'a.yaml');
    expect(third.stats).toEqual({ hits: 1, misses: 0 });

    // Another key's outcome under this name (a copied file) is not taken.
    await writeFile(entry, serialize({ key: 'other', parsed: { objects: [], warnings: [] } }));
    const fourth = cache();
    expect(await fourth.parse(TEXT, 'a.yaml')).toStrictEqual(parseManifests(TEXT, 'a.yaml'));
    expect(fourth.stats).toEqual({ hits: 0, misses: 1 });
  });

  it('works without a writable folder: parses, and says so once', async () => {
    const file = path.join(work, 'a-file');
    await writeFile(file, '');
    const blocked = cache({ dir: path.join(file, 'manifests') });
    expect(await blocked.parse(TEXT, 'a.yaml')).toStrictEqual(parseManifests(TEXT, 'a.yaml'));
    expect(await blocked.parse(TEXT, 'b.yaml')).toStrictEqual(parseManifests(TEXT, 'b.yaml'));
    await blocked.flush();
    expect(blocked.stats).toEqual({ hits: 0, misses: 2 });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/ignored: cannot (read|write)/);
  });

  it('keeps the folder within its bound, removing the entries used longest ago', async () => {
    const texts = ['a', 'b', 'c'].map((name) => TEXT.replaceAll('name: s', `name: ${name}`));
    const first = cache();
    for (const text of texts.slice(0, 2)) await first.parse(text, 'x.yaml');
    await first.flush();
    const entries = await readdir(dir);
    const size = (await stat(path.join(dir, entries[0]!))).size;
    // The first entry written is the oldest, unless a hit refreshes it.
    const hours = (n: number) => new Date(Date.now() - n * 3_600_000);
    for (const [i, name] of entries.entries()) await utimes(path.join(dir, name), hours(2 + i), hours(2 + i));
    const refreshed = cache();
    await refreshed.parse(texts[0]!, 'x.yaml');
    expect(refreshed.stats.hits).toBe(1);

    const bounded = cache({ maxBytes: size * 2 + size / 2 });
    await bounded.parse(texts[2]!, 'x.yaml');
    await bounded.flush();
    expect(await readdir(dir)).toHaveLength(2);
    const again = cache();
    await again.parse(texts[0]!, 'x.yaml');
    await again.parse(texts[2]!, 'x.yaml');
    await again.parse(texts[1]!, 'x.yaml');
    expect(again.stats).toEqual({ hits: 2, misses: 1 });
  });

  it('loads a folder of manifests as loadManifests does, from the cache the second time', async () => {
    const manifests = path.join(work, 'app');
    await mkdir(manifests);
    await writeFile(path.join(manifests, 'a.yaml'), TEXT);
    await writeFile(path.join(manifests, 'b.yml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n');
    const expected = await loadManifests(manifests);
    expect(await loadManifestsCached(manifests, { dir })).toStrictEqual(expected);
    expect(await readdir(dir)).toHaveLength(2);
    expect(await loadManifestsCached(manifests, { dir })).toStrictEqual(expected);
  });

  it('takes its folder from WAVESYNC_CACHE_DIR, XDG_CACHE_HOME or ~/.cache, and is off with WAVESYNC_MANIFEST_CACHE=off', () => {
    expect(manifestCacheDir({ WAVESYNC_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c/manifests');
    expect(manifestCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/wavesync/manifests');
    expect(manifestCacheDir({})).toBe(path.join(homedir(), '.cache', 'wavesync', 'manifests'));
    for (const off of ['off', '0', 'false', 'OFF']) {
      expect(manifestCacheDir({ WAVESYNC_MANIFEST_CACHE: off, WAVESYNC_CACHE_DIR: '/c' })).toBeUndefined();
    }
    expect(manifestCacheDir({ WAVESYNC_MANIFEST_CACHE: 'on' })).toBe(
      path.join(homedir(), '.cache', 'wavesync', 'manifests'),
    );
  });

  it('with the cache off, parses every time and writes nothing', async () => {
    const off = manifestParseCache({ dir: undefined });
    expect(await off.parse(TEXT, 'a.yaml')).toStrictEqual(parseManifests(TEXT, 'a.yaml'));
    await off.flush();
    expect(await readdir(work)).toEqual([]);
  });
});
