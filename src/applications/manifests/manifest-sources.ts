/**
 * Which files and Kustomize directories make up a manifests path, in a deterministic order.
 * A directory holding a kustomization file is a Kustomize source (its files are never read as manifests); a
 * directory holding `Chart.yaml` is a Helm chart and is refused with a clear error (the Applications layer renders
 * charts); otherwise every `*.yaml`, `*.yml` and `*.json` file counts, recursively unless `recurse` is false.
 * Directories whose name starts with `.` (e.g. `.git`) are skipped; symbolic links to directories are not followed.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ManifestError } from '../../domain/index.js';
import { KUSTOMIZATION_FILES } from '../render/render-kustomize.js';

/** One thing to read: a manifest file, or a Kustomize directory to render. */
export interface ManifestSourceEntry {
  type: 'file' | 'kustomize';
  path: string;
}

const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

/** The entries of `target` (a file or directory) sorted by path; throws ManifestError when it cannot be read. */
export async function manifestSourcesOf(target: string, recurse = true): Promise<ManifestSourceEntry[]> {
  const info = await stat(target).catch((error: NodeJS.ErrnoException) => {
    throw unreadable(target, error);
  });
  if (info.isFile()) {
    const isKustomization = KUSTOMIZATION_FILES.includes(path.basename(target));
    return [
      isKustomization ? { type: 'kustomize', path: path.dirname(target) } : { type: 'file', path: target },
    ];
  }
  const entries: ManifestSourceEntry[] = [];
  await walk(target, recurse, entries);
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function walk(dir: string, recurse: boolean, into: ManifestSourceEntry[]): Promise<void> {
  const dirents = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw unreadable(dir, error);
  });
  if (dirents.some((d) => !d.isDirectory() && d.name === 'Chart.yaml')) {
    throw new ManifestError(
      dir,
      undefined,
      'is a Helm chart (Chart.yaml): its templates are not plain manifests; render it with `helm template` ' +
        'and plan the output, or sync the Application that uses it',
    );
  }
  if (dirents.some((d) => !d.isDirectory() && KUSTOMIZATION_FILES.includes(d.name))) {
    into.push({ type: 'kustomize', path: dir });
    return;
  }
  for (const dirent of dirents) {
    const full = path.join(dir, dirent.name);
    if (dirent.isDirectory()) {
      if (recurse && !dirent.name.startsWith('.')) await walk(full, recurse, into);
    } else if (MANIFEST_EXTENSIONS.includes(path.extname(dirent.name).toLowerCase())) {
      into.push({ type: 'file', path: full });
    }
  }
}

/**
 * The ManifestError for a path the file system refused, in words and with a fix instead of the raw system error
 * (`ENOENT: no such file or directory, stat '/x'`): "does not exist", "permission denied", else the error's
 * message. The system error stays as the cause (printed with --verbose).
 */
export function unreadable(file: string, error: NodeJS.ErrnoException): ManifestError {
  const cause = { cause: error };
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new ManifestError(file, undefined, 'no such file or directory', {
        ...cause,
        fix: `give a manifest file or a directory of manifests that exists (relative paths start at ${process.cwd()})`,
      });
    case 'EACCES':
    case 'EPERM':
      return new ManifestError(file, undefined, 'permission denied', {
        ...cause,
        fix: 'make it readable by this user, or give another path',
      });
    default:
      return new ManifestError(file, undefined, `cannot read: ${error.message}`, cause);
  }
}
