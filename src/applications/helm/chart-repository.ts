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
  let entries: IndexEntry[] | undefined;
  try {
    entries = chartEntries(text, chart);
  } catch (error) {
    throw new BotError(
      'render_failed',
      `${indexUrl} is not a Helm repository index: ${(error as Error).message}`,
    );
  }
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

/**
 * The index entries of `chart`. A big repository's index is megabytes of YAML whose full parse would hold the event
 * loop for seconds, so only the chart's block is parsed when the index is laid out as `helm repo index` writes it
 * (`entries:` at the top level, each chart's key indented by two spaces, its versions below it); any other layout
 * is parsed whole.
 */
export function chartEntries(text: string, chart: string): IndexEntry[] | undefined {
  const parsed = (parse(chartBlock(text, chart) ?? text) ?? {}) as {
    entries?: Record<string, IndexEntry[] | undefined>;
  };
  return parsed.entries?.[chart];
}

const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\]/g;

function chartBlock(text: string, chart: string): string | undefined {
  const entriesAt = text.search(/^entries:[ \t]*$/m);
  if (entriesAt < 0) return undefined;
  const rest = text.slice(entriesAt);
  const start = rest.search(new RegExp(`^  ${chart.replace(REGEXP_SPECIAL, '\\$&')}:[ \\t]*$`, 'm'));
  if (start < 0) return /^ {2}["']/m.test(rest) ? undefined : 'entries: {}\n';
  const block = rest.slice(start);
  const firstLineEnd = block.indexOf('\n');
  if (firstLineEnd < 0) return undefined;
  // It ends at the next line indented less than a version's: another chart, or a top-level key.
  const end = block.slice(firstLineEnd + 1).search(/^(?: {2}[^\s-]|[^\s])/m);
  return `entries:\n${end < 0 ? block : block.slice(0, firstLineEnd + 1 + end)}`;
}
