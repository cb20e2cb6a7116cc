/**
 * Charts from Helm chart repositories and OCI registries, rendered end to end: real HTTP servers on loopback
 * (test/support/helm-servers.ts), real archives, the chart cache on disk, and `helm template` run as a process — a
 * stand-in `helm` on PATH (test/support/stand-in-helm.ts), since this machine has no helm binary.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import {
  makeServerCertificate,
  type PackedChart,
  packChart,
  startChartRepository,
  startOciRegistry,
  type TestServer,
} from '../../../test/support/helm-servers.js';
import { createStandInHelm, type StandInHelm } from '../../../test/support/stand-in-helm.js';
import { testApplication } from '../../../test/support/test-application.js';
import type { Application, ApplicationSource, BotError } from '../../domain/index.js';
import type { HelmCredential } from '../../settings/index.js';
import { createChartCache } from '../helm/chart-cache.js';
import { createApplicationRenderer } from './render-application.js';

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const crd =
  'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n';

function app(source: Partial<ApplicationSource>): Application {
  return testApplication({
    name: 'web',
    source: { repoURL: '', ...source },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'shop' },
    origin: 'apps/web.yaml:1',
  });
}

const names = (rendered: { targets: { object: { kind: string; metadata: { name?: string } } }[] }) =>
  rendered.targets.map((t) => `${t.object.kind}/${t.object.metadata.name}`);

let scratch: string;
let helm: StandInHelm;
let savedPath: string | undefined;
let charts: PackedChart[];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-helm-repos-'));
  helm = await createStandInHelm();
  savedPath = process.env.PATH;
  process.env.PATH = `${helm.dir}${path.delimiter}${savedPath ?? ''}`;
  charts = await Promise.all([
    packChart('redis', '17.2.0', { 'templates/cm.yaml': cm('redis-17-2-0') }),
    packChart('redis', '17.3.2', {
      'templates/cm.yaml': cm('redis-17-3-2'),
      'crds/widgets.yaml': crd,
      'values-prod.yaml': 'replicas: 3\n',
    }),
    packChart('redis', '18.0.0-rc.1', { 'templates/cm.yaml': cm('redis-18-rc') }),
    packChart('redis', '18.1.0', { 'templates/cm.yaml': cm('redis-18-1-0') }),
  ]);
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await rm(scratch, { recursive: true, force: true });
  await rm(helm.dir, { recursive: true, force: true });
});

async function rendererFor(credentials: HelmCredential[] = [], env: Record<string, string> = {}) {
  const cacheDir = await mkdtemp(path.join(scratch, 'cache-'));
  return createApplicationRenderer({
    baseDir: scratch,
    charts: createChartCache({ cacheDir, credentials, env, timeoutMs: 10_000 }),
  });
}

const credential = (c: Partial<HelmCredential> & { url: string }): HelmCredential => ({
  insecure: false,
  insecureOCIForceHttp: false,
  ...c,
});

describe('charts from a Helm chart repository (index.yaml)', () => {
  let repo: TestServer;
  beforeAll(async () => {
    repo = await startChartRepository({ charts, auth: { user: 'robot', password: 's3cret' } });
  });
  afterAll(async () => {
    await repo.close();
  });

  it('picks an exact version, or the highest in a semver range (no pre-release), and renders it with helm template', async () => {
    const renderer = await rendererFor(
      [credential({ url: repo.url, username: 'robot', passwordEnv: 'CHARTS_PASSWORD' })],
      { CHARTS_PASSWORD: 's3cret' },
    );

    const exact = await renderer.renderApplication(
      app({ repoURL: repo.url, chart: 'redis', targetRevision: '17.2.0' }),
    );
    const range = await renderer.renderApplication(
      app({ repoURL: repo.url, chart: 'redis', targetRevision: '17.x' }),
    );
    const helmRange = await renderer.renderApplication(
      app({ repoURL: repo.url, chart: 'redis', targetRevision: '>= 17.0.0, < 19.0.0' }),
    );
    const latest = await renderer.renderApplication(
      app({ repoURL: repo.url, chart: 'redis', targetRevision: '*' }),
    );

    expect([exact.revision, range.revision, helmRange.revision, latest.revision]).toEqual([
      '17.2.0',
      '17.3.2',
      '18.1.0',
      '18.1.0',
    ]);
    expect(exact.sourceType).toBe('Helm');
    expect(names(exact)).toEqual(['ConfigMap/redis-17-2-0']);
    expect(names(range)).toEqual(['CustomResourceDefinition/widgets.example.com', 'ConfigMap/redis-17-3-2']);
    const [run] = await helm.runs().then((r) => r.slice(-4));
    expect(run?.slice(0, 2)).toEqual(['template', 'web']);
    expect(run?.[2]).toMatch(/cache-[^/]+\/[0-9a-f]{64}\/chart\/redis$/);
    expect(
      repo.requests.every(
        (r) => r.authorization === `Basic ${Buffer.from('robot:s3cret').toString('base64')}`,
      ),
    ).toBe(true);
  });

  it('downloads a chart once: a later render of the same digest reads the cache', async () => {
    const renderer = await rendererFor(
      [credential({ url: repo.url, username: 'robot', passwordEnv: 'CHARTS_PASSWORD' })],
      { CHARTS_PASSWORD: 's3cret' },
    );
    const source = { repoURL: repo.url, chart: 'redis', targetRevision: '17.2.0' };
    const before = repo.requests.length;

    await renderer.renderApplication(app(source));
    await renderer.renderApplication(app(source));

    const paths = repo.requests.slice(before).map((r) => r.path);
    expect(paths).toEqual(['/index.yaml', '/charts/redis-17.2.0.tgz', '/index.yaml']);
  });

  it('names an unknown version with the newest published ones, and refused credentials with where to set them', async () => {
    const renderer = await rendererFor(
      [credential({ url: repo.url, username: 'robot', passwordEnv: 'CHARTS_PASSWORD' })],
      { CHARTS_PASSWORD: 's3cret' },
    );
    const unknown = await failure<BotError>(
      renderer.renderApplication(app({ repoURL: repo.url, chart: 'redis', targetRevision: '16.x' })),
    );
    expect(unknown.code).toBe('revision_not_found');
    expect(unknown.message).toBe(
      `chart redis version 16.x not found in Helm repository ${repo.url} (newest: 18.1.0, 18.0.0-rc.1, 17.3.2, 17.2.0); set targetRevision to a published version or a semver range`,
    );
    const noChart = await failure<BotError>(
      renderer.renderApplication(app({ repoURL: repo.url, chart: 'nginx' })),
    );
    expect(noChart.message).toBe(`chart nginx not found in Helm repository ${repo.url}`);

    const anonymous = await rendererFor();
    const refused = await failure<BotError>(
      anonymous.renderApplication(app({ repoURL: repo.url, chart: 'redis', targetRevision: '17.2.0' })),
    );
    expect(refused.message).toBe(
      `Helm repository ${repo.url}/index.yaml answered 401 (check helmCredentials in wavesync.yaml)`,
    );
    const unset = await failure<BotError>(
      (
        await rendererFor([credential({ url: repo.url, username: 'robot', passwordEnv: 'NOPE' })])
      ).renderApplication(app({ repoURL: repo.url, chart: 'redis' })),
    );
    expect(unset.message).toBe(`helm credential for ${repo.url}: variable NOPE is empty or unset`);
  });

  it('refuses an archive whose digest is not the one the index announces, and keeps nothing', async () => {
    const tampered = await startChartRepository({ charts, digestOf: () => 'f'.repeat(64) });
    try {
      const renderer = await rendererFor();
      const error = await failure<BotError>(
        renderer.renderApplication(app({ repoURL: tampered.url, chart: 'redis', targetRevision: '17.2.0' })),
      );
      expect(error.message).toMatch(
        /^chart .*redis-17\.2\.0\.tgz: the archive's digest sha256:[0-9a-f]{64} is not the announced sha256:f{64}$/,
      );
    } finally {
      await tampered.close();
    }
  });

  it('sends the credentials to an archive on another host only with helm.passCredentials', async () => {
    const archives = await startChartRepository({ charts, auth: { user: 'robot', password: 's3cret' } });
    const index = await startChartRepository({
      charts,
      archiveUrl: (c) =>
        `${archives.url.replace('127.0.0.1', 'localhost')}/charts/${c.name}-${c.version}.tgz`,
    });
    try {
      const renderer = await rendererFor(
        [credential({ url: index.url, username: 'robot', passwordEnv: 'CHARTS_PASSWORD' })],
        { CHARTS_PASSWORD: 's3cret' },
      );
      const source = { repoURL: index.url, chart: 'redis', targetRevision: '17.2.0' };
      const refused = await failure<BotError>(renderer.renderApplication(app(source)));
      expect(refused.message).toMatch(
        /answered 401 \(it is on another host than the repository: set helm\.passCredentials: true to send the credentials there\)$/,
      );

      const passed = await renderer.renderApplication(app({ ...source, helm: { passCredentials: true } }));
      expect(passed.revision).toBe('17.2.0');
    } finally {
      await Promise.all([archives.close(), index.close()]);
    }
  });

  it('verifies the server certificate against caFile over https', async () => {
    const certDir = await mkdtemp(path.join(scratch, 'tls-'));
    const tls = makeServerCertificate(certDir);
    const secure = await startChartRepository({ charts, tls: { key: tls.key, cert: tls.cert } });
    try {
      const source = { repoURL: secure.url, chart: 'redis', targetRevision: '17.2.0' };
      const untrusted = await failure<BotError>((await rendererFor()).renderApplication(app(source)));
      expect(untrusted.message).toMatch(
        new RegExp(`^cannot read Helm repository ${secure.url}/index.yaml: .*certificate`),
      );

      const trusted = await rendererFor([credential({ url: secure.url, caFile: tls.ca })]);
      expect((await trusted.renderApplication(app(source))).revision).toBe('17.2.0');
      const insecure = await rendererFor([credential({ url: secure.url, insecure: true })]);
      expect((await insecure.renderApplication(app(source))).revision).toBe('17.2.0');
    } finally {
      await secure.close();
    }
  });
});

describe('charts from an OCI registry (oci://)', () => {
  let registry: TestServer;
  beforeAll(async () => {
    registry = await startOciRegistry({
      repositories: { 'charts/redis': charts },
      tokenAuth: { user: 'robot', password: 'pull' },
    });
  });
  afterAll(async () => {
    await registry.close();
  });

  const ociURL = () => `oci://${registry.url.replace('http://', '')}/charts`;
  const ociCredential = () =>
    credential({ url: ociURL(), username: 'robot', passwordFile: '', insecureOCIForceHttp: true });

  it('pulls an exact version and a semver range (tags/list) with a Bearer token, then caches by layer digest', async () => {
    const passwordFile = path.join(scratch, 'registry-password');
    await writeFile(passwordFile, 'pull\n');
    const renderer = await rendererFor([{ ...ociCredential(), passwordFile }]);
    const before = registry.requests.length;

    const exact = await renderer.renderApplication(
      app({ repoURL: ociURL(), chart: 'redis', targetRevision: '17.3.2' }),
    );
    const range = await renderer.renderApplication(
      app({ repoURL: ociURL(), chart: 'redis', targetRevision: '^17.0.0' }),
    );

    expect([exact.revision, range.revision]).toEqual(['17.3.2', '17.3.2']);
    expect(names(exact)).toEqual(['CustomResourceDefinition/widgets.example.com', 'ConfigMap/redis-17-3-2']);
    const paths = registry.requests.slice(before).map((r) => r.path.replace(/\?.*/, ''));
    expect(paths.filter((p) => p.includes('/blobs/'))).toHaveLength(1);
    expect(paths).toContain('/v2/charts/redis/tags/list');
    const tokenRequest = registry.requests.slice(before).find((r) => r.path.startsWith('/token'));
    expect(tokenRequest?.path).toBe('/token?service=test-registry&scope=repository%3Acharts%2Fredis%3Apull');
    expect(tokenRequest?.authorization).toBe(`Basic ${Buffer.from('robot:pull').toString('base64')}`);
  });

  it('names a version the registry does not have, and a registry that refuses the token request', async () => {
    const passwordFile = path.join(scratch, 'registry-password');
    await writeFile(passwordFile, 'pull\n');
    const renderer = await rendererFor([{ ...ociCredential(), passwordFile }]);
    const missing = await failure<BotError>(
      renderer.renderApplication(app({ repoURL: ociURL(), chart: 'redis', targetRevision: '9.9.9' })),
    );
    expect(missing.code).toBe('revision_not_found');

    await writeFile(passwordFile, 'wrong\n');
    const refused = await failure<BotError>(
      (await rendererFor([{ ...ociCredential(), passwordFile }])).renderApplication(
        app({ repoURL: ociURL(), chart: 'redis', targetRevision: '17.3.2' }),
      ),
    );
    expect(refused.message).toMatch(
      /^OCI registry refused http:\/\/127\.0\.0\.1:\d+: its token service answered 401 \(check helmCredentials in wavesync\.yaml\)$/,
    );
  });
});

describe('helm keys and the helm binary', () => {
  let repo: TestServer;
  beforeAll(async () => {
    repo = await startChartRepository({ charts });
  });
  afterAll(async () => {
    await repo.close();
  });

  it('passes every spec.source.helm key Argo CD documents to helm template', async () => {
    const renderer = await rendererFor();
    const rendered = await renderer.renderApplication(
      app({
        repoURL: repo.url,
        chart: 'redis',
        targetRevision: '17.3.2',
        helm: {
          releaseName: 'cache',
          namespace: 'data',
          version: 'v3',
          valueFiles: ['values-prod.yaml', 'values-missing.yaml'],
          ignoreMissingValueFiles: true,
          valuesObject: { replicas: 5 },
          parameters: [{ name: 'image.tag', value: '7.2' }],
          fileParameters: [{ name: 'config', path: 'values-prod.yaml' }],
          skipCrds: true,
          skipTests: true,
          skipSchemaValidation: true,
          kubeVersion: '1.30.0',
          apiVersions: ['monitoring.coreos.com/v1', 'batch/v1/CronJob'],
        },
      }),
    );

    expect(names(rendered)).toEqual(['ConfigMap/redis-17-3-2']);
    const args = (await helm.runs()).at(-1)!;
    const chartDir = args[2]!;
    expect(args).toEqual([
      'template',
      'cache',
      chartDir,
      '--namespace',
      'data',
      '--kube-version',
      '1.30.0',
      '--values',
      path.join(chartDir, 'values-prod.yaml'),
      '--values',
      expect.stringMatching(/wavesync-helm-.*values\.yaml$/),
      '--set',
      'image.tag=7.2',
      '--set-file',
      `config=${path.join(chartDir, 'values-prod.yaml')}`,
      '--api-versions',
      'monitoring.coreos.com/v1',
      '--api-versions',
      'batch/v1/CronJob',
      '--skip-crds',
      '--skip-tests',
      '--skip-schema-validation',
    ]);
  });

  it('says helm is missing, and how to install it, before fetching anything', async () => {
    const renderer = createApplicationRenderer({
      baseDir: scratch,
      helmBinary: 'wavesync-no-helm',
      charts: createChartCache({ cacheDir: path.join(scratch, 'unused') }),
    });
    const before = repo.requests.length;

    const error = await failure<BotError>(
      renderer.renderApplication(app({ repoURL: repo.url, chart: 'redis', targetRevision: '17.2.0' })),
    );

    expect(error.code).toBe('render_failed');
    expect(error.message).toBe(
      'wavesync-no-helm is not on PATH; web has a Helm source (chart redis): install Helm 3 (https://helm.sh/docs/intro/install/) to render Helm sources; nothing was fetched',
    );
    expect(repo.requests.length).toBe(before);
  });
});
