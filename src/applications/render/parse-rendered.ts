/**
 * How a render's text becomes objects: a tool's output (Kustomize, Helm, a plugin) and a Directory-type source's
 * files, counted against the render's manifest budget and parsed in time slices, their warnings collected.
 */
import { readFile } from 'node:fs/promises';
import type { ApplicationSource } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import type { PlanWarning, SourcedObject, TimeSlice } from '../../engine/index.js';
import { type ManifestBudget, parseManifestsSliced } from '../manifests/index.js';
import { type LocalFolderKeys, type Stamped, statStamp } from './local-folder-keys.js';
import { selectDirectoryFiles } from './select-directory-files.js';

/** A tool's output (Kustomize, Helm, a plugin): counted against the budget, then parsed in slices. */
export async function parseOutput(
  text: string,
  what: string,
  dir: string,
  warnings: PlanWarning[],
  parse: Parse,
): Promise<SourcedObject[]> {
  parse.budget.addBytes(Buffer.byteLength(text), what);
  return collect(await parseSliced(text, dir, parse), warnings);
}

/**
 * The objects of a Directory-type source; with `folders` (a local folder), also the content key of the text parsed
 * (each file's stamp taken before it is read, so a later change to it is seen by the next look).
 */
export async function renderDirectory(
  source: ApplicationSource,
  dir: string,
  warnings: PlanWarning[],
  parse: Parse,
  folders: LocalFolderKeys | undefined,
): Promise<{ targets: SourcedObject[]; contentKey?: string }> {
  const selected = await selectDirectoryFiles(dir, source.directory);
  warnings.push(...selected.warnings.map((message) => ({ file: dir, line: 1, message })));
  // Sizes first: an Application over its byte limit is refused before any file is read or parsed.
  const cannotRead = (file: string) => (error: Error) => {
    throw new BotError('render_failed', `cannot read ${file}: ${error.message}`, { cause: error });
  };
  let bytes = 0;
  const stamps: Stamped[] = [];
  for (const file of selected.files) {
    const taken = folders ? folders.stamp(file) : statStamp(file).then((stamp) => ({ stamp, at: 0 }));
    const stamped = await taken.catch(cannotRead(file));
    stamps.push(stamped);
    bytes += Number(stamped.stamp.size);
  }
  const count = selected.files.length;
  parse.budget.addBytes(bytes, `${count} ${count === 1 ? 'file' : 'files'} in ${dir}`);
  const targets: SourcedObject[] = [];
  const hashes: string[] = [];
  for (const [i, file] of selected.files.entries()) {
    const text = await readFile(file, 'utf8').catch(cannotRead(file));
    if (folders) hashes.push(folders.readText(file, stamps[i]!, text));
    for (const target of collect(await parseSliced(text, file, parse), warnings)) targets.push(target);
  }
  return folders ? { targets, contentKey: `local:${folders.keyFrom(selected, hashes)}` } : { targets };
}

/** How one render parses: its limits and its time slices (and the cancel signal they observe). */
export interface Parse {
  budget: ManifestBudget;
  slice: TimeSlice;
}

function parseSliced(text: string, file: string, parse: Parse) {
  return parseManifestsSliced(text, file, {
    slice: parse.slice,
    accept: (objects) => parse.budget.addObjects(objects),
  });
}

function collect(
  parsed: { objects: SourcedObject[]; warnings: PlanWarning[] },
  warnings: PlanWarning[],
): SourcedObject[] {
  warnings.push(...parsed.warnings);
  return parsed.objects;
}
