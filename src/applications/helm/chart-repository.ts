/**
 * A chart from a Helm chart repository (`repoURL` http(s)): read `<repoURL>/index.yaml`, pick the version
 * `targetRevision` names (pickChartVersion), and locate its archive (`urls[0]`, relative to the repository) and its
 * digest (sha256 of the archive, as `helm repo index` writes it).
 */
import { parse } from 'yaml';
import { BotError } from '../../domain/index.js';
import type { HelmAuth } from './helm-auth.js';
import { httpGet } from './http-get.js';
import { pickChartVersion } from './pick-version.js';

export interface RemoteChart {
  version: string;
  /** Absolute URL of the chart archive. */
  url: string;
  /** `sha256:<hex>` from the index, when it gives one. */
  digest?: string;
}

interface IndexEntry {
  version?: unknown;
  urls?: unknown;
  digest?: unknown;
}

/**
 * @throws BotError('render_failed') when the index cannot be read (status, network or TLS error, not YAML) or has
 *   no such chart; pickChartVersion's revision_not_found.
 */
export async function findRepositoryChart(
  repoURL: string,
  chart: string,
  targetRevision: string | undefined,
  auth: HelmAuth,
  timeoutMs: number,
): Promise<RemoteChart> {
  const base = repoURL.endsWith('/') ? repoURL : `${repoURL}/`;
  const indexUrl = new URL('index.yaml', base).href;
  let text: string;
  try {
    const response = await httpGet(indexUrl, {
      headers: auth.basic ? { Authorization: auth.basic } : {},
      tls: auth.tls,
      timeoutMs,
    });
    if (response.status !== 200) {
      const hint =
        response.status === 401 || response.status === 403 ? ' (check helmCredentials in wavesync.yaml)' : '';
      throw new BotError('render_failed', `Helm repository ${indexUrl} answered ${response.status}${hint}`);
    }
    text = response.body.toString('utf8');
  } catch (error) {
    if (error instanceof BotError) throw error;
    throw new BotError(
      'render_failed',
      `cannot read Helm repository ${indexUrl}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let index: { entries?: Record<string, IndexEntry[] | undefined> };
  try {
    index = (parse(text) ?? {}) as typeof index;
  } catch (error) {
    throw new BotError(
      'render_failed',
      `${indexUrl} is not a Helm repository index: ${(error as Error).message}`,
    );
  }
  const entries = index.entries?.[chart];
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new BotError('render_failed', `chart ${chart} not found in Helm repository ${repoURL}`);
  }
  const versions = entries.flatMap((e) => (typeof e.version === 'string' ? [e.version] : []));
  const version = pickChartVersion(chart, `Helm repository ${repoURL}`, targetRevision, versions);
  const entry = entries.find((e) => e.version === version)!;
  const first = Array.isArray(entry.urls) ? entry.urls[0] : undefined;
  if (typeof first !== 'string') {
    throw new BotError('render_failed', `chart ${chart} ${version} in ${indexUrl} has no download URL`);
  }
  const digest =
    typeof entry.digest === 'string' && /^[0-9a-f]{64}$/.test(entry.digest)
      ? `sha256:${entry.digest}`
      : undefined;
  return { version, url: new URL(first, base).href, ...(digest ? { digest } : {}) };
}
