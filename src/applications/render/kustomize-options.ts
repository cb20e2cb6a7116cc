/**
 * Apply `spec.source.kustomize` options (namePrefix, nameSuffix, images) the way Argo CD does: it runs
 * `kustomize edit set nameprefix|namesuffix|image` in its own checkout before `kustomize build`
 * (util/kustomize/kustomize.go). wavesync edits a copy of the source root instead, so shared checkouts and local
 * folders are never changed, and renders the copy with the planner's renderKustomize.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { ApplicationSourceKustomize } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { KUSTOMIZATION_FILES, type KustomizeOptions, renderKustomize } from './render-kustomize.js';

/** A kustomization `images:` entry. */
export interface KustomizeImage {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/** `[old=]new[:tag|@digest]` (Argo CD KustomizeImage) → a kustomization images entry. */
export function parseKustomizeImage(spec: string): KustomizeImage {
  const eq = spec.indexOf('=');
  const target = eq < 0 ? spec : spec.slice(eq + 1);
  const at = target.indexOf('@');
  const colon = target.lastIndexOf(':');
  const hasTag = at < 0 && colon > target.lastIndexOf('/');
  const image = at >= 0 ? target.slice(0, at) : hasTag ? target.slice(0, colon) : target;
  return {
    name: eq < 0 ? image : spec.slice(0, eq),
    ...(eq < 0 ? {} : { newName: image }),
    ...(hasTag ? { newTag: target.slice(colon + 1) } : {}),
    ...(at >= 0 ? { digest: target.slice(at + 1) } : {}),
  };
}

/** True when the options change the rendering. */
export function hasKustomizeOptions(k: ApplicationSourceKustomize | undefined): boolean {
  return Boolean(k?.namePrefix || k?.nameSuffix || (k?.images?.length ?? 0) > 0);
}

/**
 * Render the Kustomize folder `dir` (inside `root`) with `options` applied.
 * @throws BotError('render_failed') when the folder has no kustomization file; renderKustomize's errors.
 */
export async function renderKustomizeWith(
  dir: string,
  root: string,
  options: ApplicationSourceKustomize | undefined,
  render: KustomizeOptions,
): Promise<string> {
  if (!hasKustomizeOptions(options)) return renderKustomize(dir, render);
  const scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-kustomize-'));
  try {
    await cp(root, scratch, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
    const copy = path.join(scratch, path.relative(root, dir));
    await editKustomization(copy, options ?? {});
    return await renderKustomize(copy, render);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function editKustomization(dir: string, options: ApplicationSourceKustomize): Promise<void> {
  const name = KUSTOMIZATION_FILES.find((f) => existsIn(dir, f));
  if (!name)
    throw new BotError('render_failed', `${dir}: no kustomization file to apply kustomize options to`);
  const file = path.join(dir, name);
  const doc = parseDocument(await readFile(file, 'utf8'));
  if (!isMap(doc.contents)) throw new BotError('render_failed', `${file}: not a kustomization map`);
  if (options.namePrefix) doc.set('namePrefix', options.namePrefix);
  if (options.nameSuffix) doc.set('nameSuffix', options.nameSuffix);
  const images = doc.get('images');
  const current = isSeq(images) ? (images.toJSON() as KustomizeImage[]) : [];
  for (const spec of options.images ?? []) {
    const image = parseKustomizeImage(spec);
    const at = current.findIndex((i) => i.name === image.name);
    if (at >= 0) current[at] = image;
    else current.push(image);
  }
  if (current.length > 0) doc.set('images', current);
  await writeFile(file, doc.toString());
}

function existsIn(dir: string, file: string): boolean {
  return existsSync(path.join(dir, file));
}
