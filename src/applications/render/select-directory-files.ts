/**
 * The files of a Directory-type Application, chosen as Argo CD's repo server does (`findManifests` in
 * reposerver/repository/repository.go): files named `*.yaml`, `*.yml`, `*.json` (case-sensitive), subfolders only
 * with `directory.recurse`, then `exclude` and `include` globs matched against the path relative to the
 * Application's path. Folders whose name starts with `.` are skipped. Jsonnet is not supported: `*.jsonnet` files
 * are skipped with a warning.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ApplicationSourceDirectory } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { compileArgoGlob } from './argo-glob.js';

const MANIFEST_FILE = /\.(yaml|yml|json)$/;

export interface SelectedFiles {
  /** Absolute paths, in walk order (names sorted within each folder, depth first). */
  files: string[];
  /** Messages about skipped input (jsonnet files, patterns that do not compile). */
  warnings: string[];
}

/** @throws BotError('render_failed') when `appDir` cannot be read. */
export async function selectDirectoryFiles(
  appDir: string,
  directory: ApplicationSourceDirectory = {},
): Promise<SelectedFiles> {
  const selected: SelectedFiles = { files: [], warnings: [] };
  const include = pattern(directory.include, 'include', selected.warnings);
  const exclude = pattern(directory.exclude, 'exclude', selected.warnings);
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: Error) => {
      throw new BotError('render_failed', `cannot read ${dir}: ${error.message}`, { cause: error });
    });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (directory.recurse && !entry.name.startsWith('.')) await walk(full);
        continue;
      }
      const relative = path.relative(appDir, full).split(path.sep).join('/');
      if (entry.name.endsWith('.jsonnet')) {
        selected.warnings.push(`${relative}: Jsonnet is not supported; file skipped`);
        continue;
      }
      if (!MANIFEST_FILE.test(entry.name)) continue;
      if (exclude?.test(relative)) continue;
      if (include && !include.test(relative)) continue;
      selected.files.push(full);
    }
  };
  await walk(appDir);
  return selected;
}

/** The compiled pattern; a pattern that does not compile matches nothing (Argo CD) and is reported. */
function pattern(glob: string | undefined, key: string, warnings: string[]): RegExp | undefined {
  if (glob === undefined || glob === '') return undefined;
  const compiled = compileArgoGlob(glob);
  if (compiled) return compiled;
  warnings.push(`directory.${key} "${glob}" is not a valid glob; it matches nothing (as in Argo CD)`);
  return /(?!)/;
}
