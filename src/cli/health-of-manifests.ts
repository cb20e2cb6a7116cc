/**
 * `wavesync health <file|dir>...`: the health of every object in some manifests as wavesync computes it — its
 * own per-kind checks, and Argo CD's Lua health scripts (`--resource-customizations DIR`, a copy of Argo CD's
 * `resource_customizations` folder; `--config wavesync.yaml` adds its `health:` settings) — so a team can try
 * its scripts on objects it saved (`kubectl get … -o yaml`). Every document of every file counts, duplicates
 * included; a Kustomize folder is rendered. Exit 0 when it ran, whatever the health.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadManifests, manifestSourcesOf, parseManifests } from '../applications/index.js';
import type { HealthStatusCode } from '../domain/index.js';
import { getResourceHealth, type SourcedObject } from '../engine/index.js';
import type { CommandIo } from './command-io.js';
import { scriptedHealthOfOptions } from './scripted-health-options.js';

export interface HealthCommandOptions {
  output: 'text' | 'json';
  resourceCustomizations?: string;
  config?: string;
}

export interface ObjectHealth {
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

async function objectsOf(target: string): Promise<SourcedObject[]> {
  const objects: SourcedObject[] = [];
  for (const entry of await manifestSourcesOf(target)) {
    if (entry.type === 'kustomize') objects.push(...(await loadManifests(entry.path)).objects);
    else objects.push(...parseManifests(await readFile(entry.path, 'utf8'), entry.path).objects);
  }
  return objects;
}

/** The health of every object of `targets`, in file order. */
export async function healthOfManifests(
  targets: readonly string[],
  options: HealthCommandOptions,
): Promise<ObjectHealth[]> {
  const scripted = await scriptedHealthOfOptions(options);
  const results: ObjectHealth[] = [];
  for (const target of targets) {
    for (const { object, source } of await objectsOf(target)) {
      const health = await getResourceHealth(object, scripted ? { scripted } : {});
      results.push({
        apiVersion: object.apiVersion,
        kind: object.kind,
        name: object.metadata.name ?? object.metadata.generateName ?? '',
        ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
        status: health?.status ?? null,
        message: health ? (health.message ?? '') : 'no health check for this kind',
        file: path.relative(process.cwd(), source.file) || source.file,
        line: source.line,
      });
    }
  }
  return results;
}

export async function printHealth(
  targets: readonly string[],
  options: HealthCommandOptions,
  io: CommandIo,
): Promise<void> {
  const results = await healthOfManifests(targets, options);
  for (const r of results) {
    if (options.output === 'json') io.stdout(`${JSON.stringify(r)}\n`);
    else {
      const status = r.status ?? '(no health)';
      io.stdout(`${r.file}:${r.line} ${r.kind}/${r.name}: ${status}${r.message ? ` — ${r.message}` : ''}\n`);
    }
  }
}
