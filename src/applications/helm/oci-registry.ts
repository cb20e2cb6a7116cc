/**
 * A Helm chart from an OCI registry (`repoURL: oci://host/path`, `chart: name` → repository `path/name`), through
 * the OCI distribution API as `helm pull oci://…` does: the tag is the chart version (`+` written `_`), a semver
 * range is answered from `GET /v2/<name>/tags/list`; `GET /v2/<name>/manifests/<tag>` names the chart layer
 * (`application/vnd.cncf.helm.chart.content.v1.tar+gzip`) and `GET /v2/<name>/blobs/<digest>` is the archive. A 401
 * is answered as its `WWW-Authenticate` asks: `Basic` with the credential, or `Bearer` with a token from the realm
 * (asked with the credential when there is one, anonymously otherwise) for `repository:<name>:pull`.
 */
import { BotError } from '../../domain/index.js';
import type { HelmAuth } from './helm-auth.js';
import { type HttpResponse, httpGet } from './http-get.js';
import { pickChartVersion } from './pick-version.js';

const MANIFEST_TYPES = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
];
const HELM_CHART_LAYER = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';

export interface OciChart {
  version: string;
  /** Digest of the chart layer (`sha256:<hex>`). */
  digest: string;
  /** Fetch the layer (the chart archive). */
  download(): Promise<Buffer>;
}

/** An OCI registry client for one repository, keeping the bearer token it was given. */
class OciRepository {
  private token: string | undefined;
  readonly base: string;
  readonly name: string;

  readonly reference: string;
  private readonly auth: HelmAuth;
  private readonly timeoutMs: number;

  constructor(reference: string, auth: HelmAuth, timeoutMs: number) {
    this.reference = reference;
    this.auth = auth;
    this.timeoutMs = timeoutMs;
    const withoutScheme = reference.replace(/^oci:\/\//, '');
    const slash = withoutScheme.indexOf('/');
    if (slash <= 0)
      throw new BotError(
        'render_failed',
        `${reference}: an OCI chart reference needs a registry host and a name`,
      );
    this.base = `${auth.plainHttp ? 'http' : 'https'}://${withoutScheme.slice(0, slash)}`;
    this.name = withoutScheme.slice(slash + 1);
  }

  async get(path: string, accept?: string): Promise<HttpResponse> {
    const url = `${this.base}/v2/${this.name}/${path}`;
    const first = await this.send(url, accept);
    if (first.status !== 401) return this.checked(first, url);
    const challenge = String(first.headers['www-authenticate'] ?? '');
    if (/^basic/i.test(challenge)) {
      if (!this.auth.basic) throw this.denied(url, 'it asks for a user and password');
      this.token = undefined;
      return this.checked(await this.send(url, accept, this.auth.basic), url);
    }
    const bearer = /^bearer\s+(.*)$/i.exec(challenge);
    if (!bearer) throw this.denied(url, `unknown challenge "${challenge}"`);
    this.token = await this.fetchToken(bearer[1]!);
    return this.checked(await this.send(url, accept), url);
  }

  private send(url: string, accept: string | undefined, authorization?: string): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (accept) headers.Accept = accept;
    const auth = authorization ?? (this.token ? `Bearer ${this.token}` : undefined);
    if (auth) headers.Authorization = auth;
    return httpGet(url, { headers, tls: this.auth.tls, timeoutMs: this.timeoutMs }).catch((error: Error) => {
      throw new BotError('render_failed', `cannot reach OCI registry ${this.base}: ${error.message}`, {
        cause: error,
      });
    });
  }

  private async fetchToken(params: string): Promise<string> {
    const fields = Object.fromEntries(
      [...params.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]),
    );
    if (!fields.realm) throw this.denied(this.base, 'its Bearer challenge names no realm');
    const url = new URL(fields.realm);
    if (fields.service) url.searchParams.set('service', fields.service);
    url.searchParams.set('scope', fields.scope ?? `repository:${this.name}:pull`);
    const response = await httpGet(url.href, {
      headers: this.auth.basic ? { Authorization: this.auth.basic } : {},
      tls: this.auth.tls,
      timeoutMs: this.timeoutMs,
    }).catch((error: Error) => {
      throw new BotError('render_failed', `cannot reach the token service ${url.origin}: ${error.message}`);
    });
    if (response.status !== 200)
      throw this.denied(url.origin, `its token service answered ${response.status}`);
    const body = JSON.parse(response.body.toString('utf8')) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw this.denied(url.origin, 'its token service gave no token');
    return token;
  }

  private checked(response: HttpResponse, url: string): HttpResponse {
    if (response.status === 401 || response.status === 403)
      throw this.denied(url, `it answered ${response.status}`);
    if (response.status === 404)
      throw new BotError('revision_not_found', `${url} not found in the OCI registry`);
    if (response.status !== 200)
      throw new BotError('render_failed', `OCI registry: ${url} answered ${response.status}`);
    return response;
  }

  private denied(url: string, why: string): BotError {
    return new BotError(
      'render_failed',
      `OCI registry refused ${url}: ${why} (check helmCredentials in wavesync.yaml)`,
    );
  }
}

/**
 * @throws BotError: render_failed (unreachable, refused, no chart layer), revision_not_found (no such tag or version).
 */
export async function findOciChart(
  repoURL: string,
  chart: string,
  targetRevision: string | undefined,
  auth: HelmAuth,
  timeoutMs: number,
): Promise<OciChart> {
  const reference = `${repoURL.replace(/\/+$/, '')}/${chart}`;
  const repo = new OciRepository(reference, auth, timeoutMs);
  const tag = await pickTag(repo, chart, targetRevision);
  const manifestResponse = await repo.get(`manifests/${tag}`, MANIFEST_TYPES.join(', '));
  const manifest = JSON.parse(manifestResponse.body.toString('utf8')) as {
    layers?: { mediaType?: string; digest?: string }[];
  };
  const layer = manifest.layers?.find((l) => l.mediaType === HELM_CHART_LAYER);
  if (!layer?.digest || !/^sha256:[0-9a-f]{64}$/.test(layer.digest)) {
    throw new BotError(
      'render_failed',
      `${reference}:${tag} is not a Helm chart (no ${HELM_CHART_LAYER} layer)`,
    );
  }
  const digest = layer.digest;
  return {
    version: tag.replaceAll('_', '+'),
    digest,
    download: async () => (await repo.get(`blobs/${digest}`)).body,
  };
}

/** The tag of the version `targetRevision` names: itself when it is a tag, else the best semver match in the list. */
async function pickTag(
  repo: OciRepository,
  chart: string,
  targetRevision: string | undefined,
): Promise<string> {
  const wanted = (targetRevision ?? '').trim();
  if (/^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]*)?$/.test(wanted)) return wanted.replaceAll('+', '_');
  const tags = JSON.parse((await repo.get('tags/list')).body.toString('utf8')) as { tags?: string[] | null };
  const versions = (tags.tags ?? []).map((t) => t.replaceAll('_', '+'));
  return pickChartVersion(chart, `OCI registry ${repo.reference}`, wanted, versions).replaceAll('+', '_');
}
