/**
 * Content keys of local folders, so the render cache (./render-cache.ts) can hold what a local Directory-type source
 * renders: such a source has no revision (its revision is the content hash of what it renders), but what it renders
 * depends only on the files selectDirectoryFiles picks and their text. The key of a folder is the SHA-256 of that
 * selection (its paths and messages) and of each file's SHA-256, so two folders with the same selection and text
 * have the same key, and any change to a selected file, a new or removed file, or another `directory` option (it
 * changes the selection) gives another key.
 *
 * Hashing every file at every look would still read all of them; instead the hash of a file is reused while its
 * stamp — device, inode, size, mtime and ctime, to the nanosecond — is the same, and only once the file's last
 * change (mtime or ctime, whichever is later) is at least `racyMs` older than the moment its stamp was taken before
 * hashing it. A filesystem's timestamps are coarse (a kernel tick; 1–2 s on some filesystems): a file written again
 * within the same tick with the same size has the same stamp, so a file changed that recently is hashed again at each
 * look until its change is old enough (git's "racy clean" problem, solved the same way). An unchanged folder costs a
 * readdir and a stat per file. Bounded: the hashes of the `maxFiles` most recently looked-at files.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { ApplicationSourceDirectory } from '../../domain/index.js';
import { type SelectedFiles, selectDirectoryFiles } from './select-directory-files.js';

/** What identifies one version of a file on disk (BigIntStats fields, nanosecond times). */
export interface FileStamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

export interface LocalFolderKeysOptions {
  /** Files whose hash is kept (the most recently looked-at); default 50,000. */
  maxFiles?: number;
  /** A file changed less than this long (ms) before its stamp was taken is hashed again at every look; default 3000. */
  racyMs?: number;
  /** The stamp of a file (default: fs.stat with bigint times). */
  stamp?(file: string): Promise<FileStamp>;
  now?(): number;
}

export interface LocalFolderKeys {
  /**
   * The content key of the files of `dir` that `directory` selects, or undefined when one of them was never read
   * by a render (or was forgotten): nothing rendered from it can be cached, so the caller renders without hashing
   * it twice. Rejects with the file system's error when the folder or a file cannot be read (the caller then
   * renders, which reports it).
   */
  keyOf(dir: string, directory: ApplicationSourceDirectory | undefined): Promise<string | undefined>;
  /** The stamp of `file` now, and when it was taken: take it before reading the file. */
  stamp(file: string): Promise<Stamped>;
  /** A render read `text` from `file` after taking `stamped`: its hash is kept for the next look, and returned. */
  readText(file: string, stamped: Stamped, text: string): string;
  /** The key of a selection whose files have these hashes (the same as keyOf's). */
  keyFrom(selected: SelectedFiles, hashes: readonly string[]): string;
  /** Files whose hash is kept; files hashed since creation (a look at an unchanged, settled folder hashes none). */
  stats(): { files: number; hashed: number };
}

export interface Stamped {
  stamp: FileStamp;
  /** When it was taken (ms since the epoch). */
  at: number;
}

interface Known {
  stamp: string;
  hash: string;
  /** The file's last change was older than `racyMs` when it was hashed: its stamp alone tells a change. */
  settled: boolean;
}

export async function statStamp(file: string): Promise<FileStamp> {
  const s = await stat(file, { bigint: true });
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
}

const stampString = (s: FileStamp) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

export function createLocalFolderKeys(options: LocalFolderKeysOptions = {}): LocalFolderKeys {
  const maxFiles = options.maxFiles ?? 50_000;
  const racyNs = BigInt(options.racyMs ?? 3000) * 1_000_000n;
  const stampOf = options.stamp ?? statStamp;
  const now = options.now ?? Date.now;
  const known = new Map<string, Known>();
  let hashed = 0;

  const remember = (file: string, entry: Known) => {
    known.delete(file);
    known.set(file, entry);
    while (known.size > maxFiles) known.delete(known.keys().next().value!);
  };
  const stamped = async (file: string): Promise<Stamped> => {
    const at = now();
    return { stamp: await stampOf(file), at };
  };
  const readText = (file: string, { stamp, at }: Stamped, text: string): string => {
    const hash = createHash('sha256').update(text).digest('base64');
    hashed++;
    const atNs = BigInt(Math.floor(at)) * 1_000_000n;
    const settled = stamp.mtimeNs + racyNs <= atNs && stamp.ctimeNs + racyNs <= atNs;
    remember(file, { stamp: stampString(stamp), hash, settled });
    return hash;
  };
  const keyFrom = (selected: SelectedFiles, hashes: readonly string[]): string =>
    createHash('sha256')
      .update(JSON.stringify([selected.warnings, selected.files, hashes]))
      .digest('base64');

  return {
    stamp: stamped,
    readText,
    keyFrom,
    async keyOf(dir, directory) {
      const selected = await selectDirectoryFiles(dir, directory);
      const hashes: string[] = [];
      for (const file of selected.files) {
        const now = await stamped(file);
        const entry = known.get(file);
        if (entry === undefined) return undefined;
        if (entry.settled && entry.stamp === stampString(now.stamp)) {
          remember(file, entry);
          hashes.push(entry.hash);
        } else hashes.push(readText(file, now, await readFile(file, 'utf8')));
      }
      return keyFrom(selected, hashes);
    },
    stats: () => ({ files: known.size, hashed }),
  };
}
