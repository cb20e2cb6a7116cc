/**
 * Multi-source Applications (`spec.sources`) rendered end to end: a chart from a Helm repository (real loopback
 * HTTP) with value files from a git ref source (`$values/…`), a git folder of plain manifests, a stand-in `helm` on
 * PATH (this machine has no helm binary) that records its argv.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import { packChart, startChartRepository, type TestServer } from '../../../test/support/helm-servers.js';
import { createStandInHelm, type StandInHelm } from '../../../test/support/stand-in-helm.js';
import { testApplication } from '../../../test/support/test-application.js';
import { type ApplicationSource, type BotError, displayRevision } from '../../domain/index.js';
import { createGitRepositoryCache } from '../git/git-repository-cache.js';
import { createChartCache } from '../helm/chart-cache.js';
import { parseApplicationFile } from '../parse-applications.js';
import { createApplicationRenderer } from './render-application.js';

const cm = (name: string, data = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${data ? `data: { v: "${data}" }\n` : ''}`;

let scratch: string;
let helm: StandInHelm;
let savedPath: string | undefined;
let fixture: GitFixture;
let repo: TestServer;
let shas: string[];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-multi-'));
  helm = await createStandInHelm();
  savedPath = process.env.PATH;
  process.env.PATH = `${helm.dir}${path.delimiter}${savedPath ?? ''}`;
  repo = await startChartRepository({
    charts: [
      await packChart('redis', '17.3.2', {
        'templates/cm.yaml': cm('redis'),
        'templates/shared.yaml': cm('shared', 'chart'),
      }),
    ],
  });
  fixture = await createGitFixture();
  shas = [
    await fixture.commit({
      'values/redis-prod.yaml': 'replicas: 3\n',
      'manifests/extra.yaml': cm('extra'),
      'manifests/shared.yaml': cm('shared', 'git'),
    }),
  ];
  fixture.tag('v1');
  shas.push(await fixture.commit({ 'manifests/extra.yaml': cm('extra', '2') }));
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await Promise.all([repo.close(), fixture.cleanup()]);
  await rm(scratch, { recursive: true, force: true });
  await rm(helm.dir, { recursive: true, force: true });
});

function renderer() {
  return createApplicationRenderer({
    baseDir: scratch,
    git: createGitRepositoryCache({ cacheDir: path.join(scratch, 'git'), env: { PATH: process.env.PATH } }),
    charts: createChartCache({ cacheDir: path.join(scratch, 'charts') }),
  });
}

function multiApp(sources: Partial<ApplicationSource>[]) {
  const all = sources.map((s) => ({ repoURL: '', ...s }));
  return testApplication({ name: 'web', source: all[0]!, sources: all, origin: 'apps/web.yaml:1' });
}

const chartSource = () => ({
  repoURL: repo.url,
  chart: 'redis',
  targetRevision: '17.x',
  helm: { valueFiles: ['$values/values/redis-prod.yaml'] },
});

describe('multi-source Applications', () => {
  it('renders every source, resolves $ref value files in the ref source, and names each source’s revision', async () => {
    const app = multiApp([
      chartSource(),
      { repoURL: fixture.url, targetRevision: 'v1', ref: 'values' },
      { repoURL: fixture.url, targetRevision: 'main', path: 'manifests' },
    ]);

    const rendered = await renderer().renderApplication(app);

    expect(rendered.revision).toBe(`17.3.2;${shas[0]};${shas[1]}`);
    expect(displayRevision(rendered.revision, '17.x;v1;main')).toBe(
      `17.3.2 (17.x) + ${shas[0]!.slice(0, 7)} (v1) + ${shas[1]!.slice(0, 7)} (main)`,
    );
    const objects = rendered.targets.map(
      (t) => `${t.object.metadata.name}=${(t.object.data as { v?: string })?.v ?? ''}`,
    );
    expect(objects).toEqual(['redis=', 'extra=2', 'shared=git']);
    expect(rendered.warnings.map((w) => w.message)).toEqual([
      "ConfigMap/shared is produced by sources[0] and sources[2]: the one of sources[2] is used (Argo CD's RepeatedResourceWarning)",
    ]);
    const args = (await helm.runs()).at(-1)!;
    const valuesAt = args.indexOf('--values');
    expect(args[valuesAt + 1]).toMatch(new RegExp(`/${shas[0]}/values/redis-prod\\.yaml$`));
  });

  it('renders each source at the revision asked for it (one per source, ";" between), and names a wrong count', async () => {
    const app = multiApp([
      chartSource(),
      { repoURL: fixture.url, targetRevision: 'main', ref: 'values', path: 'manifests' },
    ]);

    const pinned = await renderer().renderApplication(app, { revision: `;${shas[0]}` });

    expect(pinned.revision).toBe(`17.3.2;${shas[0]}`);
    expect(pinned.targets.find((t) => t.object.metadata.name === 'extra')?.object.data).toBeUndefined();
    const wrong = await failure<BotError>(renderer().renderApplication(app, { revision: 'main' }));
    expect(wrong.code).toBe('invalid_command');
    expect(wrong.message).toBe(
      'web has 2 sources: give one revision per source, in order, joined by ";" (an empty one keeps that source\'s targetRevision), e.g. main;',
    );
  });

  it('names an unknown $ref and a value file that leaves the ref source', async () => {
    const unknown = multiApp([
      { ...chartSource(), helm: { valueFiles: ['$nope/values.yaml'] } },
      { repoURL: fixture.url, ref: 'values' },
    ]);
    expect((await failure<BotError>(renderer().renderApplication(unknown))).message).toBe(
      'helm value file $nope/values.yaml: no source has ref: nope (known: $values)',
    );
    const escaping = multiApp([
      { ...chartSource(), helm: { valueFiles: ['$values/../../x.yaml'] } },
      { repoURL: fixture.url, ref: 'values' },
    ]);
    expect((await failure<BotError>(renderer().renderApplication(escaping))).message).toBe(
      'helm value file $values/../../x.yaml is outside the repository',
    );
  });

  it('renders an Argo CD multi-source manifest as written (sources wins over source)', async () => {
    const text = [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata: { name: web }',
      'spec:',
      '  destination: { namespace: shop }',
      `  source: { repoURL: ${fixture.url}, path: nowhere }`,
      '  sources:',
      `    - { repoURL: "${repo.url}", chart: redis, targetRevision: 17.3.2, helm: { valueFiles: [$values/values/redis-prod.yaml] } }`,
      `    - { repoURL: "${fixture.url}", targetRevision: v1, ref: values }`,
    ].join('\n');
    const [app] = parseApplicationFile(text, 'web.yaml').applications;

    const rendered = await renderer().renderApplication(app!);

    expect(rendered.revision).toBe(`17.3.2;${shas[0]}`);
    expect(rendered.targets.map((t) => t.object.metadata.name)).toEqual(['redis', 'shared']);
  });
});
