/**
 * Real HTTP servers for Helm charts, in-process on loopback (no network): a chart repository (index.yaml + archives,
 * optional Basic auth, optional TLS) and an OCI registry (distribution API: tags/list, manifests, blobs, with a
 * Bearer token service). Charts are real `.tgz` archives packed with node-tar, as `helm package` lays them out
 * (`<name>/Chart.yaml`, `<name>/templates/…`). Every request is recorded so tests can see what was fetched.
 */

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { c as createTar } from 'tar';
import { stringify } from 'yaml';
import { makeTestCertificates } from './test-certificates.js';

export interface PackedChart {
  name: string;
  version: string;
  archive: Buffer;
  /** sha256 hex of the archive. */
  sha256: string;
}

/** A chart archive holding Chart.yaml, the given files (path inside the chart → content). */
export async function packChart(
  name: string,
  version: string,
  files: Record<string, string>,
): Promise<PackedChart> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-chart-'));
  try {
    const root = path.join(dir, name);
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: ${version}\n`);
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), content);
    }
    const archiveFile = path.join(dir, 'chart.tgz');
    await createTar({ gzip: true, cwd: dir, file: archiveFile, portable: true }, [name]);
    const archive = await readFile(archiveFile);
    return { name, version, archive, sha256: createHash('sha256').update(archive).digest('hex') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface RecordedRequest {
  path: string;
  authorization: string | undefined;
}

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

async function serve(handler: Handler, tls?: { key: Buffer; cert: Buffer }): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ path: url.pathname + url.search, authorization: req.headers.authorization });
    handler(req, res, url);
  };
  const server: Server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export interface ChartRepositoryOptions {
  charts: PackedChart[];
  /** Require this user and password on every request. */
  auth?: { user: string; password: string };
  tls?: { key: Buffer; cert: Buffer };
  /** Where index.yaml says the archives are (default: `charts/<name>-<version>.tgz` relative to the repository). */
  archiveUrl?: (chart: PackedChart) => string;
  /** Announce this digest instead of the archive's (a tampered archive). */
  digestOf?: (chart: PackedChart) => string;
}

/** A Helm chart repository: `/index.yaml` and `/charts/<name>-<version>.tgz`. */
export async function startChartRepository(options: ChartRepositoryOptions): Promise<TestServer> {
  return serve((req, res, url) => {
    if (options.auth && req.headers.authorization !== basic(options.auth.user, options.auth.password)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="charts"' }).end('unauthorized');
      return;
    }
    if (url.pathname === '/index.yaml') {
      const entries: Record<string, unknown[]> = {};
      for (const chart of options.charts) {
        const list = entries[chart.name] ?? [];
        entries[chart.name] = list;
        list.push({
          apiVersion: 'v2',
          name: chart.name,
          version: chart.version,
          digest: options.digestOf?.(chart) ?? chart.sha256,
          urls: [options.archiveUrl?.(chart) ?? `charts/${chart.name}-${chart.version}.tgz`],
        });
      }
      res.writeHead(200, { 'Content-Type': 'text/yaml' }).end(stringify({ apiVersion: 'v1', entries }));
      return;
    }
    const chart = options.charts.find((c) => url.pathname.endsWith(`/${c.name}-${c.version}.tgz`));
    if (chart) res.writeHead(200, { 'Content-Type': 'application/gzip' }).end(chart.archive);
    else res.writeHead(404).end('not found');
  }, options.tls);
}

export interface OciRegistryOptions {
  /** Repository name (`charts/redis`) → its charts. */
  repositories: Record<string, PackedChart[]>;
  /** Require a Bearer token from `/token`, given for this user and password (anonymous when absent). */
  tokenAuth?: { user: string; password: string };
}

const HELM_LAYER = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';
const TOKEN = 'test-registry-token';

/** An OCI registry serving Helm charts the way `helm push` stores them (config + one chart layer). */
export async function startOciRegistry(options: OciRegistryOptions): Promise<TestServer> {
  let base = '';
  const server = await serve((req, res, url) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (url.pathname === '/token') {
      const auth = options.tokenAuth;
      if (auth && req.headers.authorization !== basic(auth.user, auth.password))
        return json(401, { errors: [] });
      return json(200, { token: TOKEN });
    }
    if (options.tokenAuth && req.headers.authorization !== `Bearer ${TOKEN}`) {
      const challenge = `Bearer realm="${base}/token",service="test-registry",scope="repository:${url.pathname.split('/').slice(2, -2).join('/')}:pull"`;
      return json(401, { errors: [{ code: 'UNAUTHORIZED' }] }, { 'WWW-Authenticate': challenge });
    }
    const match = /^\/v2\/(.+)\/(tags\/list|manifests\/[^/]+|blobs\/[^/]+)$/.exec(url.pathname);
    const charts = match ? options.repositories[match[1]!] : undefined;
    if (!match || !charts) return json(404, { errors: [{ code: 'NAME_UNKNOWN' }] });
    const what = match[2]!;
    if (what === 'tags/list')
      return json(200, { name: match[1], tags: charts.map((c) => c.version.replaceAll('+', '_')) });
    if (what.startsWith('manifests/')) {
      const tag = what.slice('manifests/'.length);
      const chart = charts.find((c) => c.version.replaceAll('+', '_') === tag);
      if (!chart) return json(404, { errors: [{ code: 'MANIFEST_UNKNOWN' }] });
      const config = Buffer.from(JSON.stringify({ name: chart.name, version: chart.version }));
      return json(
        200,
        {
          schemaVersion: 2,
          config: {
            mediaType: 'application/vnd.cncf.helm.config.v1+json',
            digest: `sha256:${createHash('sha256').update(config).digest('hex')}`,
            size: config.length,
          },
          layers: [{ mediaType: HELM_LAYER, digest: `sha256:${chart.sha256}`, size: chart.archive.length }],
        },
        { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' },
      );
    }
    const digest = what.slice('blobs/'.length);
    const chart = charts.find((c) => `sha256:${c.sha256}` === digest);
    if (!chart) return json(404, { errors: [{ code: 'BLOB_UNKNOWN' }] });
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(chart.archive);
  });
  base = server.url;
  return server;
}

/** A CA and a certificate for 127.0.0.1 signed by it (openssl), in `dir`: ca.crt, server.key, server.crt. */
export function makeServerCertificate(dir: string): { ca: string; key: Buffer; cert: Buffer } {
  makeTestCertificates(dir, 'charts-ca', [{ name: 'server', cn: '127.0.0.1', ip: '127.0.0.1' }]);
  const read = (f: string) => readFileSync(path.join(dir, f));
  return { ca: path.join(dir, 'ca.crt'), key: read('server.key'), cert: read('server.crt') };
}
