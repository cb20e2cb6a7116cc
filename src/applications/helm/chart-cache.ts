/**
 * Helm charts from chart repositories and OCI registries, downloaded once and kept by digest: `<cacheDir>/<sha256>/`
 * holds the unpacked chart. The digest is the archive's sha256, checked against the one the repository index or the
 * OCI manifest announces (a mismatch is an error, nothing is kept). A chart whose digest is known and cached is not
 * downloaded again. Credentials come from wavesync.yaml `helmCredentials`; the chart repository's are sent to the
 * host the archive is on only when it is the repository's host or `helm.passCredentials` is true (Helm's
 * `--pass-credentials`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { x as extract } from 'tar';
import type { ApplicationSource } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import type { HelmCredential } from '../../settings/index.js';
import { findRepositoryChart } from './chart-repository.js';
import { type HelmAuth, helmAuthFor, helmCredentialFor } from './helm-auth.js';
import { httpGet } from './http-get.js';
import { findOciChart } from './oci-registry.js';

interface FetchedChart {
  /** The unpacked chart folder (holds Chart.yaml). */
  dir: string;
  /** The version fetched: the source's revision. */
  version: string;
  /** `sha256:<hex>` of the chart archive. */
  digest: string;
}

export interface ChartCache {
  /**
   * The chart of `source` (`repoURL` + `chart`) at `revision` (default `targetRevision`; a version or a semver range).
   * @throws BotError: revision_not_found (no such version), render_failed (unreachable, refused, digest mismatch,
   *   not a chart archive), invalid_config (a credential's secret is missing).
   */
  fetch(source: ApplicationSource, revision: string | undefined): Promise<FetchedChart>;
  /**
   * The version `source.targetRevision` names now (a version, or the highest match of a semver range), read from
   * the repository index or the OCI tags; nothing is downloaded. Same errors as fetch.
   */
  resolveVersion(source: ApplicationSource): Promise<string>;
}

export interface ChartCacheOptions {
  cacheDir: string;
  credentials?: readonly HelmCredential[];
  /** Supplies the variables named by `passwordEnv`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Timeout of one HTTP request, in ms (default 60000). */
  timeoutMs?: number;
}

/** True for a source rendered from a chart repository or OCI registry rather than a folder. */
export function isRepositoryChart(source: ApplicationSource): boolean {
  return source.chart !== undefined && source.chart !== '';
}

export function createChartCache(options: ChartCacheOptions): ChartCache {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const authOf = (source: ApplicationSource) =>
    helmAuthFor(helmCredentialFor(source.repoURL, options.credentials ?? []), options.env ?? {});
  return {
    async resolveVersion(source) {
      const chart = source.chart ?? '';
      if (source.repoURL.startsWith('oci://')) {
        return (await findOciChart(source.repoURL, chart, source.targetRevision, authOf(source), timeoutMs))
          .version;
      }
      if (!/^https?:\/\//.test(source.repoURL)) {
        throw new BotError(
          'render_failed',
          `chart ${chart}: repoURL ${source.repoURL} is neither an http(s) Helm repository nor an oci:// registry`,
        );
      }
      return (
        await findRepositoryChart(source.repoURL, chart, source.targetRevision, authOf(source), timeoutMs)
      ).version;
    },
    async fetch(source, revision) {
      const chart = source.chart ?? '';
      const wanted = revision ?? source.targetRevision;
      const auth = helmAuthFor(
        helmCredentialFor(source.repoURL, options.credentials ?? []),
        options.env ?? {},
      );
      if (source.repoURL.startsWith('oci://')) {
        const found = await findOciChart(source.repoURL, chart, wanted, auth, timeoutMs);
        const cached = cachedDir(options.cacheDir, found.digest);
        if (cached) return { dir: cached, version: found.version, digest: found.digest };
        const archive = await found.download();
        const dir = await store(
          options.cacheDir,
          archive,
          found.digest,
          `${source.repoURL}/${chart}:${found.version}`,
        );
        return { dir, version: found.version, digest: found.digest };
      }
      if (!/^https?:\/\//.test(source.repoURL)) {
        throw new BotError(
          'render_failed',
          `chart ${chart}: repoURL ${source.repoURL} is neither an http(s) Helm repository nor an oci:// registry`,
        );
      }
      const found = await findRepositoryChart(source.repoURL, chart, wanted, auth, timeoutMs);
      const cached = found.digest ? cachedDir(options.cacheDir, found.digest) : undefined;
      if (cached && found.digest) return { dir: cached, version: found.version, digest: found.digest };
      const archive = await download(found.url, source, auth, timeoutMs);
      const digest = found.digest ?? `sha256:${sha256(archive)}`;
      const dir = await store(options.cacheDir, archive, digest, found.url);
      return { dir, version: found.version, digest };
    },
  };
}

async function download(
  url: string,
  source: ApplicationSource,
  auth: HelmAuth,
  timeoutMs: number,
): Promise<Buffer> {
  const sameHost = new URL(url).host === new URL(source.repoURL).host;
  const sendCredentials = auth.basic !== undefined && (sameHost || source.helm?.passCredentials === true);
  const response = await httpGet(url, {
    headers: sendCredentials && auth.basic ? { Authorization: auth.basic } : {},
    tls: auth.tls,
    timeoutMs,
  }).catch((error: Error) => {
    throw new BotError('render_failed', `cannot download chart ${url}: ${error.message}`, { cause: error });
  });
  if (response.status !== 200) {
    const hint =
      (response.status === 401 || response.status === 403) && !sameHost && !source.helm?.passCredentials
        ? ' (it is on another host than the repository: set helm.passCredentials: true to send the credentials there)'
        : '';
    throw new BotError(
      'render_failed',
      `cannot download chart ${url}: it answered ${response.status}${hint}`,
    );
  }
  return response.body;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The unpacked chart of `digest`, when it is cached. */
function cachedDir(cacheDir: string, digest: string): string | undefined {
  const root = path.join(cacheDir, digest.replace(/^sha256:/, ''));
  return existsSync(root) ? chartFolderIn(root) : undefined;
}

/** Check the archive against `digest`, unpack it into the cache (atomically) and return the chart folder. */
async function store(cacheDir: string, archive: Buffer, digest: string, what: string): Promise<string> {
  const actual = `sha256:${sha256(archive)}`;
  if (actual !== digest) {
    throw new BotError(
      'render_failed',
      `chart ${what}: the archive's digest ${actual} is not the announced ${digest}`,
    );
  }
  const root = path.join(cacheDir, digest.replace(/^sha256:/, ''));
  const scratch = `${root}.tmp-${randomBytes(6).toString('hex')}`;
  await mkdir(scratch, { recursive: true });
  try {
    const file = path.join(scratch, 'chart.tgz');
    await writeFile(file, archive);
    const target = path.join(scratch, 'chart');
    await mkdir(target);
    await extract({ file, cwd: target, strict: true }).catch((error: Error) => {
      throw new BotError('render_failed', `chart ${what} is not a chart archive (.tgz): ${error.message}`);
    });
    await rm(file);
    if (chartFolderIn(path.join(scratch)) === undefined) {
      throw new BotError('render_failed', `chart ${what}: the archive holds no Chart.yaml`);
    }
    // Another render may have stored the same digest meanwhile: theirs is as good.
    await rename(scratch, root).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(root)) throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return chartFolderIn(root)!;
}

/** `<root>/chart/<name>/` holding Chart.yaml (helm packages a chart in a folder of its name). */
function chartFolderIn(root: string): string | undefined {
  const unpacked = path.join(root, 'chart');
  if (!existsSync(unpacked)) return undefined;
  for (const entry of readdirSync(unpacked, { withFileTypes: true })) {
    if (entry.isDirectory() && existsSync(path.join(unpacked, entry.name, 'Chart.yaml'))) {
      return path.join(unpacked, entry.name);
    }
  }
  return undefined;
}
