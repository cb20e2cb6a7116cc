import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLocalFolderKeys,
  type FileStamp,
  type LocalFolderKeys,
  statStamp,
} from './local-folder-keys.js';
import { selectDirectoryFiles } from './select-directory-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-folder-keys-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cm = (name: string, value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name} }\ndata: { v: "${value}" }\n`;

/** What a render does: every selected file stamped, then read and hashed (as renderDirectory does). */
async function readAll(keys: LocalFolderKeys, folder: string): Promise<string> {
  const selected = await selectDirectoryFiles(folder);
  const hashes: string[] = [];
  for (const file of selected.files) {
    const stamped = await keys.stamp(file);
    hashes.push(keys.readText(file, stamped, await readFile(file, 'utf8')));
  }
  return keys.keyFrom(selected, hashes);
}

/**
 * A filesystem with one-minute timestamps: the real stamp with mtime and ctime rounded down to a minute counted
 * from `base` (a second before the test started), so every write of the test has the same times — harsher than any
 * real filesystem (FAT: 2 s). Two writes of the same size in a row then have the same stamp.
 */
const MINUTE_NS = 60_000_000_000n;
function minuteStamp(): (file: string) => Promise<FileStamp> {
  const base = BigInt(Date.now() - 1000) * 1_000_000n;
  const round = (ns: bigint) => ns - ((ns - base) % MINUTE_NS);
  return async (file) => {
    const s = await statStamp(file);
    return { ...s, mtimeNs: round(s.mtimeNs), ctimeNs: round(s.ctimeNs) };
  };
}

describe('local folder keys', () => {
  it('has no key for a folder no render read, then the key of what the render read', async () => {
    await writeFile(path.join(dir, 'a.yaml'), cm('a', '1'));
    const keys = createLocalFolderKeys();
    expect(await keys.keyOf(dir, undefined)).toBeUndefined();
    const rendered = await readAll(keys, dir);
    expect(await keys.keyOf(dir, undefined)).toBe(rendered);
  });

  it('changes with an edited, a new or a removed file and with the selection; same content, same key', async () => {
    await writeFile(path.join(dir, 'a.yaml'), cm('a', '1'));
    await writeFile(path.join(dir, 'b.yaml'), cm('b', '1'));
    const keys = createLocalFolderKeys();
    const first = await readAll(keys, dir);

    await writeFile(path.join(dir, 'a.yaml'), cm('a', '2'));
    const edited = await keys.keyOf(dir, undefined);
    expect(edited).not.toBe(first);

    // Written again with the first content (a new mtime): the same key as before the edit.
    await writeFile(path.join(dir, 'a.yaml'), cm('a', '1'));
    expect(await keys.keyOf(dir, undefined)).toBe(first);

    await writeFile(path.join(dir, 'c.yaml'), cm('c', '1'));
    await readAll(keys, dir);
    const added = await keys.keyOf(dir, undefined);
    expect(added).not.toBe(first);
    await unlink(path.join(dir, 'c.yaml'));
    expect(await keys.keyOf(dir, undefined)).toBe(first);

    // Another selection of the same files: another key.
    expect(await keys.keyOf(dir, { include: 'a.yaml' })).not.toBe(first);
    // A file the selection skips (not a manifest) changes nothing.
    await writeFile(path.join(dir, 'notes.txt'), 'not a manifest');
    expect(await keys.keyOf(dir, undefined)).toBe(first);
  });

  it('sees a file written again with the same size and the same stamp (racy), when racyMs covers the granularity', async () => {
    const stamp = minuteStamp();
    const keys = createLocalFolderKeys({ stamp, racyMs: 60_000 });
    const unsafe = createLocalFolderKeys({ stamp, racyMs: 0 });
    const file = path.join(dir, 'a.yaml');
    await writeFile(file, cm('a', '1'));
    const first = await readAll(keys, dir);
    expect(await readAll(unsafe, dir)).toBe(first);
    const before = await stamp(file);
    await writeFile(file, cm('a', '2'));
    expect(await stamp(file)).toEqual(before);

    // Trusting the stamp alone misses the change; the racy window hashes the file again and sees it.
    expect(await unsafe.keyOf(dir, undefined)).toBe(first);
    const second = await keys.keyOf(dir, undefined);
    expect(second).not.toBe(first);
    expect(second).toBe(await readAll(createLocalFolderKeys(), dir));
  });

  it('hashes a settled file once: an unchanged folder costs a stat per file', async () => {
    // Looks taken 10 s after now: every file's last change is older than the racy window.
    const keys = createLocalFolderKeys({ now: () => Date.now() + 10_000 });
    await mkdir(path.join(dir, 'sub'));
    for (const name of ['a', 'b', 'c']) await writeFile(path.join(dir, `${name}.yaml`), cm(name, '1'));
    const first = await readAll(keys, dir);
    expect(keys.stats().hashed).toBe(3);
    for (let i = 0; i < 5; i++) expect(await keys.keyOf(dir, undefined)).toBe(first);
    expect(keys.stats().hashed).toBe(3);

    // A file changed just now is within the racy window of a real look: hashed again at each look.
    const real = createLocalFolderKeys();
    await readAll(real, dir);
    await real.keyOf(dir, undefined);
    await real.keyOf(dir, undefined);
    expect(real.stats().hashed).toBe(9);
  });

  it('keeps the hashes of at most maxFiles files', async () => {
    const keys = createLocalFolderKeys({ maxFiles: 2 });
    for (const name of ['a', 'b', 'c']) await writeFile(path.join(dir, `${name}.yaml`), cm(name, '1'));
    await readAll(keys, dir);
    expect(keys.stats().files).toBe(2);
    // a.yaml was forgotten: no key until a render reads it again.
    expect(await keys.keyOf(dir, undefined)).toBeUndefined();
  });
});
