/**
 * Read every Application named by `applications:` in wavesync.yaml: directories (recursively, *.yaml, *.yml,
 * *.json), single files, directories inside git repositories at a revision, and Application objects in a cluster
 * namespace. All problems are collected and reported together; a name defined twice is an error naming both places.
 * Cluster sources are read leniently, because the cluster holds objects wavesync.yaml's author did not write: an
 * invalid Application object there is skipped with a warning, no Application CRD (kind not served) means none, an
 * unreachable cluster means none until the next read (warning), and a name also defined by a file or git source is
 * taken from that source (the cluster copy is typically what an App of Apps parent applied from it).
 * ApplicationSets found in the same sources are generated (applicationsets/), and their Applications join the
 * others under the same rules: an ApplicationSet that fails to generate from a file or git source is a problem,
 * one from the cluster is skipped with a warning; a generator wavesync cannot run is refused with a warning.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Application, KubeObject } from '../domain/index.js';
import { BotError } from '../domain/index.js';
import { isNotFound } from '../engine/index.js';
import type { Logger } from '../logger.js';
import type { ApplicationSourceEntry, Settings } from '../settings/index.js';
import { resolveSettingsPath } from '../settings/index.js';
import {
  ApplicationSetError,
  generateApplications,
  generatorClusters,
} from './applicationsets/generate-applications.js';
import type { ApplicationSetDocument } from './applicationsets/parse-applicationset.js';
import type { RolloutPlan } from './applicationsets/rollout-steps.js';
import type { GitRepositoryCache } from './git/git-repository-cache.js';
import { type ParsedApplicationFile, parseApplicationFile } from './parse-applications.js';

export interface ApplicationSourceDeps {
  /** Needed for `git:` entries. */
  git?: GitRepositoryCache;
  /**
   * Needed for `cluster:` entries: the objects of `kind` (default Application; ApplicationSet too) in `namespace`
   * of `context` (current when undefined).
   */
  clusterApplications?: (source: {
    namespace: string;
    context: string | undefined;
    kind?: 'Application' | 'ApplicationSet';
  }) => Promise<KubeObject[]>;
  logger?: Pick<Logger, 'debug' | 'warn'>;
}

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/** What one ApplicationSet generated at the last read: its Applications, rollout steps and deletion policy. */
export interface ApplicationSetSummary {
  name: string;
  /** `file:line` (or the cluster object) it was read from. */
  origin: string;
  /** The names of the Applications it generated, in generation order. */
  applications: string[];
  /** `strategy: RollingSync` steps over those Applications (absent: all at once). */
  rollout?: RolloutPlan;
  /** `syncPolicy.preserveResourcesOnDeletion` (Argo CD default false). */
  preserveResourcesOnDeletion: boolean;
  /** `syncPolicy.applicationsSync` (Argo CD default `sync`). */
  applicationsSync: 'create-only' | 'create-update' | 'create-delete' | 'sync';
}

/**
 * All Applications of `settings`, sorted by name, and the ApplicationSets that generated some of them.
 * @throws BotError('invalid_manifest') listing every invalid Application (file:line: key path: problem) and
 *   duplicate name; BotError('invalid_config') when a source cannot be read or needs a missing dependency.
 */
export async function loadApplicationsAndSets(
  settings: Settings,
  deps: ApplicationSourceDeps,
): Promise<{ applications: Application[]; applicationSets: ApplicationSetSummary[] }> {
  const sets: ApplicationSetSummary[] = [];
  const parsed: ParsedApplicationFile[] = [];
  const fromCluster: ParsedApplicationFile[] = [];
  for (const entry of settings.applications) {
    const read = await readEntry(settings, entry, deps);
    (entry.cluster !== undefined ? fromCluster : parsed).push(...read);
  }
  const problems = parsed.flatMap((p) => p.problems);
  const generated = await generateAll(settings, parsed, deps, problems, sets);
  const byName = new Map<string, Application>();
  for (const app of [...parsed.flatMap((p) => p.applications), ...generated]) {
    const earlier = byName.get(app.name);
    if (earlier)
      problems.push(`${app.origin}: Application "${app.name}" is already defined at ${earlier.origin}`);
    else byName.set(app.name, app);
  }
  for (const problem of fromCluster.flatMap((p) => p.problems)) {
    deps.logger?.warn({ problem }, 'Application object in the cluster skipped');
  }
  const generatedInCluster = await generateAll(settings, fromCluster, deps, undefined, sets);
  for (const app of [...fromCluster.flatMap((p) => p.applications), ...generatedInCluster]) {
    const earlier = byName.get(app.name);
    if (earlier) deps.logger?.debug({ application: app.name, kept: earlier.origin }, 'cluster copy ignored');
    else byName.set(app.name, app);
  }
  parsed.push(...fromCluster);
  if (problems.length > 0)
    throw new BotError('invalid_manifest', `invalid Applications:\n${problems.join('\n')}`);
  for (const p of parsed) {
    for (const note of p.skipped) deps.logger?.debug(note);
    for (const u of p.unknownFields) {
      deps.logger?.debug({ application: u.name, fields: u.paths }, 'Application fields kept and ignored');
    }
  }
  const applications = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { applications, applicationSets: sets };
}

/**
 * The Applications of every ApplicationSet in `files`. With `problems` (file and git sources) a failure is a
 * problem; without (the cluster) it is a warning and the ApplicationSet's Applications are left out.
 */
async function generateAll(
  settings: Settings,
  files: ParsedApplicationFile[],
  deps: ApplicationSourceDeps,
  problems: string[] | undefined,
  summaries: ApplicationSetSummary[],
): Promise<Application[]> {
  const sets: ApplicationSetDocument[] = files.flatMap((p) => p.applicationSets);
  const clusters = generatorClusters(settings);
  const out: Application[] = [];
  for (const set of sets) {
    try {
      const generated = await generateApplications(set, { clusters, ...(deps.git ? { git: deps.git } : {}) });
      for (const refused of generated.refused) {
        deps.logger?.warn({ applicationSet: generated.applicationSet, file: set.file }, refused.message);
      }
      for (const note of generated.notes) {
        deps.logger?.debug({ applicationSet: generated.applicationSet, file: set.file }, note);
      }
      out.push(...generated.applications);
      const policy = set.manifest.spec.syncPolicy;
      summaries.push({
        name: generated.applicationSet,
        origin: `${set.file}:${set.line}`,
        applications: generated.applications.map((a) => a.name),
        ...(generated.rollout ? { rollout: generated.rollout } : {}),
        preserveResourcesOnDeletion: policy?.preserveResourcesOnDeletion === true,
        applicationsSync: policy?.applicationsSync ?? 'sync',
      });
    } catch (error) {
      // ApplicationSetError names the set; a BotError (git unreachable, revision not found) is prefixed with it.
      let message: string;
      if (error instanceof ApplicationSetError) message = error.message;
      else if (error instanceof BotError) {
        message = `${set.file}:${set.line}: ApplicationSet "${set.manifest.metadata.name}": ${error.message}`;
      } else if (problems) throw error;
      else message = String(error);
      if (problems) problems.push(message);
      else deps.logger?.warn({ problem: message }, 'ApplicationSet in the cluster skipped');
    }
  }
  return out;
}

async function readEntry(
  settings: Settings,
  entry: ApplicationSourceEntry,
  deps: ApplicationSourceDeps,
): Promise<ParsedApplicationFile[]> {
  if (entry.directory !== undefined) return readDirectory(resolveSettingsPath(settings, entry.directory));
  if (entry.file !== undefined) return [await readOne(resolveSettingsPath(settings, entry.file))];
  if (entry.git !== undefined) {
    if (!deps.git)
      throw new BotError('invalid_config', 'applications: a git source needs the git repository cache');
    const checkout = await deps.git.checkout(entry.git.repoURL, entry.git.revision);
    return readDirectory(
      path.join(checkout.dir, entry.git.path),
      `${entry.git.repoURL}@${checkout.sha.slice(0, 7)}`,
    );
  }
  if (entry.cluster !== undefined) {
    const where = `cluster:${entry.cluster.context ?? 'current'}/${entry.cluster.namespace}`;
    if (!deps.clusterApplications) {
      // A caller that reads only files (a test, a tool): like an unreachable cluster, no Applications from it.
      deps.logger?.warn({ source: where }, 'no Kubernetes connection to list Applications; skipped');
      return [];
    }
    // Applications and ApplicationSets are listed at once: a read must stay quick (a name typed in Slack waits on it).
    const listing = deps.clusterApplications({
      namespace: entry.cluster.namespace,
      context: entry.cluster.context,
    });
    const sets = readClusterApplicationSets(entry.cluster, where, deps);
    let objects: KubeObject[];
    try {
      objects = await listing;
    } catch (error) {
      if (isNotFound(error)) {
        deps.logger?.debug({ source: where }, 'no Application CRD in the cluster: no Applications there');
      } else {
        deps.logger?.warn({ source: where, err: (error as Error).message }, 'cannot list Applications');
      }
      return sets;
    }
    // One "file" per object, named after it: problems and origins say which Application (`cluster:…/argocd/shop:1`).
    const files = objects.map((o) =>
      parseApplicationFile(stringify(o), `${where}/${o.metadata.name ?? '(unnamed)'}`),
    );
    return [...files, ...(await sets)];
  }
  return [];
}

/** The ApplicationSets of a cluster source (none when the cluster has no ApplicationSet CRD or cannot be read). */
async function readClusterApplicationSets(
  cluster: { namespace: string; context?: string | undefined },
  where: string,
  deps: ApplicationSourceDeps,
): Promise<ParsedApplicationFile[]> {
  let objects: KubeObject[];
  try {
    objects =
      (await deps.clusterApplications?.({
        namespace: cluster.namespace,
        context: cluster.context,
        kind: 'ApplicationSet',
      })) ?? [];
  } catch (error) {
    if (!isNotFound(error)) {
      deps.logger?.warn({ source: where, err: (error as Error).message }, 'cannot list ApplicationSets');
    }
    return [];
  }
  return objects
    .filter((o) => o.kind === 'ApplicationSet')
    .map((o) => {
      const parsed = parseApplicationFile(
        stringify(o),
        `${where}/applicationsets/${o.metadata.name ?? '(unnamed)'}`,
      );
      return { ...parsed, applications: [] };
    });
}

async function readOne(file: string, shownAs = file): Promise<ParsedApplicationFile> {
  try {
    return parseApplicationFile(await readFile(file, 'utf8'), shownAs);
  } catch (error) {
    throw new BotError(
      'invalid_config',
      `applications: cannot read ${shownAs}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** Every manifest file under `dir` (hidden files and folders skipped), in path order. */
async function readDirectory(dir: string, shownAs?: string): Promise<ParsedApplicationFile[]> {
  let entries: string[];
  try {
    entries = (await readdir(dir, { recursive: true })).map(String);
  } catch (error) {
    throw new BotError(
      'invalid_config',
      `applications: cannot read directory ${dir}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const files = entries
    .filter((f) => MANIFEST_FILE.test(f) && !f.split(path.sep).some((part) => part.startsWith('.')))
    .sort();
  return Promise.all(
    files.map((f) => readOne(path.join(dir, f), shownAs ? `${shownAs}:${f}` : path.join(dir, f))),
  );
}
