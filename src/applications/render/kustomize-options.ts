/**
 * Apply `spec.source.kustomize` options the way Argo CD does (util/kustomize/kustomize.go): before `kustomize build`
 * it edits the kustomization in its own checkout — `kustomize edit set nameprefix|namesuffix|image|replicas|
 * namespace`, `kustomize edit add label|annotation|component` (with `--force`, `--without-selector`,
 * `--include-templates` from the options) — and appends the Application's `patches` to the kustomization's own.
 * Image, label (and, with `commonAnnotationsEnvsubst`, annotation) values are substituted with the build
 * environment (`${ARGOCD_APP_NAME}`…). wavesync makes the same edits in a copy of the source root, so shared checkouts
 * and local folders are never changed, and renders the copy with the planner's renderKustomize.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Document, isMap, isSeq, parseDocument } from 'yaml';
import type { ApplicationSourceKustomize } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { type BuildEnv, envsubst } from './build-env.js';
import { KUSTOMIZATION_FILES, type KustomizeOptions, renderKustomize } from './render-kustomize.js';

/** A kustomization `images:` entry. */
interface KustomizeImage {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/** `[old=]new[:tag|@digest]` (Argo CD KustomizeImage) → a kustomization images entry. */
function parseKustomizeImage(spec: string): KustomizeImage {
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

/** True when the options change the kustomization (Argo CD edits it only for non-empty options). */
function hasKustomizeOptions(k: ApplicationSourceKustomize | undefined): boolean {
  if (!k) return false;
  const lists = [k.images, k.replicas, k.components, k.patches];
  const maps = [k.commonLabels, k.commonAnnotations];
  return Boolean(
    k.namePrefix ||
      k.nameSuffix ||
      k.namespace ||
      lists.some((l) => (l?.length ?? 0) > 0) ||
      maps.some((m) => Object.keys(m ?? {}).length > 0),
  );
}

/**
 * Render the Kustomize folder `dir` (inside `root`) with `options` applied; `env` is the build environment.
 * @throws BotError('render_failed') when the folder has no kustomization file, a label or annotation already set
 *   without `force…`, a missing component; renderKustomize's errors.
 */
export async function renderKustomizeWith(
  dir: string,
  root: string,
  options: ApplicationSourceKustomize | undefined,
  render: KustomizeOptions,
  env: BuildEnv = {},
): Promise<string> {
  if (!hasKustomizeOptions(options)) return renderKustomize(dir, render);
  const scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-kustomize-'));
  try {
    await cp(root, scratch, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
    const copy = path.join(scratch, path.relative(root, dir));
    await editKustomization(copy, options ?? {}, env, path.relative(root, dir) || '.');
    return await renderKustomize(copy, render);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function editKustomization(
  dir: string,
  options: ApplicationSourceKustomize,
  env: BuildEnv,
  shownDir: string,
): Promise<void> {
  const name = KUSTOMIZATION_FILES.find((f) => existsSync(path.join(dir, f)));
  if (!name)
    throw new BotError('render_failed', `${shownDir}: no kustomization file to apply kustomize options to`);
  const file = path.join(dir, name);
  const shown = path.join(shownDir, name);
  const doc = parseDocument(await readFile(file, 'utf8'));
  if (!isMap(doc.contents)) throw new BotError('render_failed', `${shown}: not a kustomization map`);
  if (options.namePrefix) doc.set('namePrefix', options.namePrefix);
  if (options.nameSuffix) doc.set('nameSuffix', options.nameSuffix);
  setImages(
    doc,
    (options.images ?? []).map((i) => envsubst(i, env)),
  );
  setReplicas(doc, options.replicas ?? []);
  addLabels(doc, options, env, shown);
  const annotations = Object.entries(options.commonAnnotations ?? {}).map(([k, v]): [string, string] => [
    k,
    options.commonAnnotationsEnvsubst ? envsubst(v, env) : v,
  ]);
  addToMap(doc, 'commonAnnotations', annotations, {
    force: options.forceCommonAnnotations === true,
    what: (k) => `kustomize.commonAnnotations: annotation ${k} is already in ${shown}`,
    fix: 'set kustomize.forceCommonAnnotations: true to override it',
  });
  if (options.namespace) doc.set('namespace', options.namespace);
  addComponents(doc, dir, options, shownDir);
  if ((options.patches?.length ?? 0) > 0) appendToSeq(doc, 'patches', options.patches ?? []);
  await writeFile(file, doc.toString());
}

function listOf<T>(doc: Document, key: string): T[] {
  const node = doc.get(key);
  return isSeq(node) ? (node.toJSON() as T[]) : [];
}

/** `kustomize edit set image`: an entry of the same name is replaced, others appended. */
function setImages(doc: Document, specs: string[]): void {
  if (specs.length === 0) return;
  const current = listOf<KustomizeImage>(doc, 'images');
  for (const spec of specs) {
    const image = parseKustomizeImage(spec);
    const at = current.findIndex((i) => i.name === image.name);
    if (at >= 0) current[at] = image;
    else current.push(image);
  }
  doc.set('images', current);
}

/** `kustomize edit set replicas name=count`: by name, replaced or appended. */
function setReplicas(doc: Document, replicas: readonly { name: string; count: number | string }[]): void {
  if (replicas.length === 0) return;
  const current = listOf<{ name: string; count: number }>(doc, 'replicas');
  for (const { name, count } of replicas) {
    const entry = { name, count: Number(count) };
    const at = current.findIndex((r) => r.name === name);
    if (at >= 0) current[at] = entry;
    else current.push(entry);
  }
  doc.set('replicas', current);
}

/**
 * `kustomize edit add label [--force] [--without-selector [--include-templates]]`: into `commonLabels`, or with
 * `labelWithoutSelector` into a `labels:` entry with `includeSelectors: false` (and `includeTemplates` from
 * `labelIncludeTemplates`).
 */
function addLabels(doc: Document, options: ApplicationSourceKustomize, env: BuildEnv, shown: string): void {
  const labels = Object.entries(options.commonLabels ?? {}).map(([k, v]): [string, string] => [
    k,
    envsubst(v, env),
  ]);
  if (labels.length === 0) return;
  const rule = {
    force: options.forceCommonLabels === true,
    what: (k: string) => `kustomize.commonLabels: label ${k} is already in ${shown}`,
    fix: 'set kustomize.forceCommonLabels: true to override it',
  };
  if (!options.labelWithoutSelector) {
    addToMap(doc, 'commonLabels', labels, rule);
    return;
  }
  const includeTemplates = options.labelIncludeTemplates === true;
  const entries = listOf<{
    pairs?: Record<string, string>;
    includeSelectors?: boolean;
    includeTemplates?: boolean;
  }>(doc, 'labels');
  let entry = entries.find((e) => !e.includeSelectors && Boolean(e.includeTemplates) === includeTemplates);
  if (!entry) {
    entry = { pairs: {}, includeSelectors: false, ...(includeTemplates ? { includeTemplates: true } : {}) };
    entries.push(entry);
  }
  entry.pairs = mergePairs(entry.pairs ?? {}, labels, rule);
  doc.set('labels', entries);
}

interface MergeRule {
  force: boolean;
  what: (key: string) => string;
  fix: string;
}

function mergePairs(current: Record<string, string>, add: [string, string][], rule: MergeRule) {
  const merged = { ...current };
  for (const [key, value] of add) {
    if (key in merged && !rule.force) throw new BotError('render_failed', `${rule.what(key)}; ${rule.fix}`);
    merged[key] = value;
  }
  return merged;
}

function addToMap(doc: Document, key: string, add: [string, string][], rule: MergeRule): void {
  if (add.length === 0) return;
  const node = doc.get(key);
  const current = isMap(node) ? (node.toJSON() as Record<string, string>) : {};
  doc.set(key, mergePairs(current, add, rule));
}

/**
 * `kustomize edit add component`: each path (relative to the kustomization) must exist — unless
 * `ignoreMissingComponents`, which leaves the missing ones out (Argo CD 2.14) — and is added once.
 */
function addComponents(
  doc: Document,
  dir: string,
  options: ApplicationSourceKustomize,
  shownDir: string,
): void {
  const wanted = options.components ?? [];
  if (wanted.length === 0) return;
  const found = wanted.filter((c) => existsSync(path.resolve(dir, c)));
  const missing = wanted.filter((c) => !found.includes(c));
  if (missing.length > 0 && !options.ignoreMissingComponents) {
    throw new BotError(
      'render_failed',
      `kustomize.components: ${missing.join(', ')} not found in ${shownDir}; ` +
        'fix the path, or set kustomize.ignoreMissingComponents: true to leave missing components out',
    );
  }
  const current = listOf<string>(doc, 'components');
  const added = [...current, ...found.filter((c) => !current.includes(c))];
  if (added.length > 0) doc.set('components', added);
}

/** Argo CD appends the Application's patches to the kustomization's own `patches`. */
function appendToSeq(doc: Document, key: string, items: readonly unknown[]): void {
  doc.set(key, [...listOf<unknown>(doc, key), ...items]);
}
