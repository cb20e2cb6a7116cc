/**
 * `wavesync health <file|dir>...`: the health of every object in some manifests as wavesync computes it — its
 * own per-kind checks, and Argo CD's Lua health scripts (`--resource-customizations DIR`, a copy of Argo CD's
 * `resource_customizations` folder; `--config wavesync.yaml` adds its `health:` settings) — so a team can try
 * its scripts on objects it saved (`kubectl get … -o yaml`). Every document of every file counts, duplicates
 * included; a Kustomize folder is rendered. A document that is no valid object (YAML syntax, a duplicate key, no
 * metadata.name) is reported with its file:line and the others are still judged; then the exit code is 2.
 * Otherwise exit 0 when it ran, whatever the health.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadManifests, manifestSourcesOf, parseManifestsEach } from '../applications/index.js';
import { BotError, type HealthStatusCode, ManifestError } from '../domain/index.js';
import { getResourceHealth, type SourcedObject } from '../engine/index.js';
import type { CommandIo } from './command-io.js';
import { scriptedHealthOfOptions } from './scripted-health-options.js';

export interface HealthCommandOptions {
  output: 'text' | 'json';
  resourceCustomizations?: string;
  config?: string;
}

interface ObjectHealth {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  /** null: no check and no script for the kind (Argo CD shows no health). */
  status: HealthStatusCode | null;
  message: string;
  file: string;
  line: number;
}

/** A document that is no valid object: where, and why. */
interface BadDocument {
  file: string;
  line: number;
  error: string;
}

async function objectsOf(target: string): Promise<(SourcedObject | ManifestError)[]> {
  const objects: (SourcedObject | ManifestError)[] = [];
  for (const entry of await manifestSourcesOf(target)) {
    if (entry.type === 'kustomize') objects.push(...(await loadManifests(entry.path)).objects);
    else {
      const text = await readFile(entry.path, 'utf8');
      for (const outcome of parseManifestsEach(text, entry.path)) {
        if (outcome instanceof ManifestError) objects.push(outcome);
        else objects.push(...outcome.objects);
      }
    }
  }
  return objects;
}

const shown = (file: string) => path.relative(process.cwd(), file) || file;

/** The health of every object of `targets`, in file order, and every bad document in its place. */
async function healthOfManifests(
  targets: readonly string[],
  options: HealthCommandOptions,
): Promise<(ObjectHealth | BadDocument)[]> {
  const scripted = await scriptedHealthOfOptions(options);
  const found: (SourcedObject | ManifestError)[] = [];
  for (const target of targets) found.push(...(await objectsOf(target)));
  // All at once: the scripts' worker takes them as one batch.
  return Promise.all(
    found.map(async (item): Promise<ObjectHealth | BadDocument> => {
      if (item instanceof ManifestError)
        return { file: shown(item.file), line: item.line ?? 1, error: item.problem };
      const { object, source } = item;
      const health = await getResourceHealth(object, scripted ? { scripted } : {});
      return {
        apiVersion: object.apiVersion,
        kind: object.kind,
        name: object.metadata.name ?? object.metadata.generateName ?? '',
        ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
        status: health?.status ?? null,
        message: health ? (health.message ?? '') : 'no health check for this kind',
        file: shown(source.file),
        line: source.line,
      };
    }),
  );
}

/**
 * Prints one line per document (text), or one JSON object per line (JSON lines, `-o json`): an object's health,
 * or `{ file, line, error }` for a bad document. Throws (exit 2) after printing everything when a document was bad.
 */
export async function printHealth(
  targets: readonly string[],
  options: HealthCommandOptions,
  io: CommandIo,
): Promise<void> {
  const results = await healthOfManifests(targets, options);
  for (const r of results) {
    if (options.output === 'json') io.stdout(`${JSON.stringify(r)}\n`);
    else if ('error' in r) io.stdout(`${r.file}:${r.line} error: ${r.error}\n`);
    else {
      const status = r.status ?? '(no health)';
      io.stdout(`${r.file}:${r.line} ${r.kind}/${r.name}: ${status}${r.message ? ` — ${r.message}` : ''}\n`);
    }
  }
  const bad = results.filter((r) => 'error' in r);
  if (bad.length > 0) {
    const judged = results.length - bad.length;
    throw new BotError(
      'invalid_manifest',
      `${bad.length} document${bad.length === 1 ? '' : 's'} could not be judged (listed above); ${judged} judged`,
      { fix: 'fix each at the line shown' },
    );
  }
}
