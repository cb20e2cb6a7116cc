/**
 * loadManifests — the desired objects of a manifests path: one file, or a directory (recursively; a Kustomize
 * directory is rendered with `kustomize build` / `kubectl kustomize`). Objects come back in file order, each with
 * the file and 1-based line it starts on; for Kustomize sources `file` is the kustomization directory and `line`
 * counts lines of the rendered output.
 */
import { readFile } from 'node:fs/promises';
import type { PlanWarning, SourcedObject } from '../../engine/index.js';
import { assertUniqueTargets } from '../../engine/index.js';
import { type KustomizeOptions, renderKustomize } from '../render/render-kustomize.js';
import { type ManifestSourceEntry, manifestSourcesOf, unreadable } from './manifest-sources.js';
import { type ParsedManifests, parseManifests } from './parse-manifests.js';

export interface LoadManifestsOptions {
  /** Read subdirectories too (default true; Argo CD's `directory.recurse`). */
  recurse?: boolean;
  kustomize?: KustomizeOptions;
  /**
   * Parses one file's (or render's) text as parseManifests does (the default); the command line passes its on-disk
   * cache of parse outcomes (src/cli/manifest-parse-cache.ts).
   */
  parse?: (text: string, file: string) => ParsedManifests | Promise<ParsedManifests>;
}

export interface LoadedManifests {
  objects: SourcedObject[];
  /** YAML warnings (e.g. duplicate anchors); planner warnings come from buildSyncTasks. */
  warnings: PlanWarning[];
}

/**
 * Loads every manifest under `target`. Throws ManifestError (file, 1-based line, problem) for an unreadable
 * path, a YAML syntax error, an object without apiVersion/kind/metadata.name (generateName only on hooks), a
 * non-string annotation or label value, duplicate group/kind/namespace/name, or a failed Kustomize render.
 */
export async function loadManifests(
  target: string,
  opts: LoadManifestsOptions = {},
): Promise<LoadedManifests> {
  const entries = await manifestSourcesOf(target, opts.recurse ?? true);
  const texts: string[] = [];
  for (let i = 0; i < entries.length; i += READ_CONCURRENCY) {
    const batch = entries.slice(i, i + READ_CONCURRENCY);
    texts.push(...(await Promise.all(batch.map((entry) => textOf(entry, opts)))));
  }
  const loaded: LoadedManifests = { objects: [], warnings: [] };
  const parse = opts.parse ?? parseManifests;
  // Every file at once (a cache's reads overlap), taken in the files' order: the first file's error is the one said.
  const outcomes = await Promise.allSettled(
    entries.map(async (entry, i) => parse(texts[i] ?? '', entry.path)),
  );
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason;
    loaded.objects.push(...outcome.value.objects);
    loaded.warnings.push(...outcome.value.warnings);
  }
  assertUniqueTargets(loaded.objects, '');
  return loaded;
}

/** Files read at once: enough to overlap I/O, far below any open-file limit. */
const READ_CONCURRENCY = 32;

function textOf(entry: ManifestSourceEntry, opts: LoadManifestsOptions): Promise<string> {
  return entry.type === 'file' ? readText(entry.path) : renderKustomize(entry.path, opts.kustomize);
}

function readText(file: string): Promise<string> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw unreadable(file, error);
  });
}
