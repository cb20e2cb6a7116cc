/**
 * Every ApplicationSet example of Argo CD (shared fixtures, applicationset/examples) generates what its comments and
 * documentation say. Git generators read real git repositories served over file://: one holding the examples
 * folder at the path Argo CD's repository has it (the examples' repoURL is mapped to it, as git's `insteadOf`
 * would), one laid out as the design-doc examples' comments draw `cluster-deployments`. Both template modes: each
 * `-fasttemplate` twin must generate the same Applications as its Go-template original.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import { sharedFixturesDir } from '../../../test/support/shared-fixtures.js';
import { createGitRepositoryCache } from '../git/git-repository-cache.js';
import { parseApplicationFile } from '../parse-applications.js';
import { type GeneratedApplications, generateApplications } from './generate-applications.js';
import type { GeneratorCluster, GitCheckouts } from './generator-context.js';

const FIXTURES = sharedFixturesDir('argo-cd-applicationset');
const EXAMPLES = path.join(FIXTURES, 'applicationset', 'examples');
const ARGO_CD = 'https://github.com/argoproj/argo-cd.git';
const INFRA = 'https://github.com/infra-team/cluster-deployments.git';

/** Two clusters registered the way Generators-Cluster.md and Generators-Merge.md describe them. */
const CLUSTERS: GeneratorCluster[] = [
  {
    name: 'staging',
    server: 'https://1.2.3.4',
    labels: { environment: 'staging', 'use-kafka': 'false' },
    annotations: {},
  },
  { name: 'production', server: 'https://2.4.6.8', labels: { environment: 'production' }, annotations: {} },
];

let argo: GitFixture;
let infra: GitFixture;
let git: GitCheckouts;

async function filesUnder(dir: string, prefix: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[`${prefix}/${path.relative(dir, full)}`] = await readFile(full, 'utf8');
  }
  return out;
}

const config = (name: string, address: string) =>
  JSON.stringify({
    aws_account: '123456',
    asset_id: '11223344',
    cluster: { owner: 'ops@example.com', name, address },
  });

beforeAll(async () => {
  argo = await createGitFixture();
  await argo.commit(await filesUnder(EXAMPLES, 'applicationset/examples'));
  infra = await createGitFixture();
  // The tree drawn in design-doc/git-directory-discovery.yaml, git-files-discovery.yaml and git-files-literal.yaml.
  await infra.commit({
    'add-ons/argo-rollouts/all.yaml': 'kind: List\n',
    'add-ons/argo-rollouts/kustomization.yaml': 'resources: [all.yaml]\n',
    'add-ons/argo-workflows/install.yaml': 'kind: List\n',
    'add-ons/grafana/Chart.yaml': 'name: grafana\n',
    'add-ons/grafana/values.yaml': '{}\n',
    'add-ons/prometheus-operator/Chart.yaml': 'name: prometheus-operator\n',
    'add-ons/prometheus-operator/values.yaml': '{}\n',
    'apps/guestbook/install.yaml': 'kind: List\n',
    'cluster-config/engineering/dev/config.json': config('engineering-dev', 'http://1.2.3.4'),
    'cluster-config/engineering/prod/config.json': config('engineering-prod', 'http://2.4.6.8'),
    'cluster-config/finance/dev/config.json': config('finance-dev', 'http://3.4.5.6'),
    'cluster-config/finance/prod/config.json': config('finance-prod', 'http://4.5.6.7'),
    'config/clusters.json': JSON.stringify([
      {
        account: '123456',
        asset_id: '11223344',
        cluster: { owner: 'a@example.com', name: 'engineering-dev', address: 'http://1.2.3.4' },
        appVersions: { 'prometheus-operator': 'v0.38', guestbook: 'v2.0' },
      },
      {
        account: '456789',
        asset_id: '55667788',
        cluster: { owner: 'b@example.com', name: 'engineering-prod', address: 'http://2.4.6.8' },
        appVersions: { 'prometheus-operator': 'v0.38', guestbook: 'v1.0' },
      },
    ]),
  });
  const cache = createGitRepositoryCache({
    cacheDir: path.join(argo.root, 'cache'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const urls: Record<string, string> = { [ARGO_CD]: argo.url, [INFRA]: infra.url };
  git = { checkout: (repoURL, revision) => cache.checkout(urls[repoURL] ?? repoURL, revision) };
});

afterAll(async () => {
  await argo?.cleanup();
  await infra?.cleanup();
});

async function generate(example: string): Promise<GeneratedApplications> {
  const file = path.join(EXAMPLES, example);
  const parsed = parseApplicationFile(await readFile(file, 'utf8'), example);
  expect(parsed.problems).toEqual([]);
  expect(parsed.applicationSets).toHaveLength(1);
  return generateApplications(parsed.applicationSets[0] as never, { clusters: CLUSTERS, git });
}

const names = (g: GeneratedApplications) => g.applications.map((a) => a.name);
const byName = (g: GeneratedApplications) => new Map(g.applications.map((a) => [a.name, a]));

/** Each example with its `-fasttemplate` twin: both must generate exactly these Applications. */
function bothModes(example: string, check: (g: GeneratedApplications) => void) {
  for (const file of [example, example.replace(/\.yaml$/, '-fasttemplate.yaml')]) {
    it(file, async () => check(await generate(file)));
  }
}

describe('Argo CD ApplicationSet examples', () => {
  bothModes('list-generator/list-example.yaml', (g) => {
    expect(names(g)).toEqual(['engineering-dev-guestbook', 'engineering-prod-guestbook']);
    const dev = byName(g).get('engineering-dev-guestbook');
    expect(dev?.source.path).toBe('applicationset/examples/list-generator/guestbook/engineering-dev');
    expect(dev?.destination).toEqual({ server: 'https://kubernetes.default.svc', namespace: 'guestbook' });
    // Argo CD adds the resources finalizer (no preserveResourcesOnDeletion) and owns the Application.
    expect(dev?.finalizers).toEqual(['resources-finalizer.argocd.argoproj.io']);
    expect(dev?.manifest.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'ApplicationSet',
        name: 'guestbook',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(dev?.namespace).toBe('argocd');
  });

  for (const policy of ['create-only', 'create-update']) {
    it(`applications-sync-policies/${policy}.yaml: labels from the elements, the policy noted`, async () => {
      const g = await generate(`applications-sync-policies/${policy}.yaml`);
      expect(names(g)).toEqual(['engineering-dev-guestbook', 'engineering-prod-guestbook']);
      expect(g.applications.map((a) => a.labels.foo)).toEqual(['bar', 'baz']);
      expect(g.notes.join('\n')).toContain(`spec.syncPolicy.applicationsSync ${policy}`);
    });
  }

  bothModes('cluster/cluster-example.yaml', (g) => {
    // No selector: every cluster, plus the one Argo CD runs in (no cluster has its address).
    expect(names(g)).toEqual(['staging-guestbook', 'production-guestbook', 'in-cluster-guestbook']);
    expect(g.applications.map((a) => a.destination.server)).toEqual([
      'https://1.2.3.4',
      'https://2.4.6.8',
      'https://kubernetes.default.svc',
    ]);
  });

  bothModes('design-doc/applicationset.yaml', (g) => {
    expect(names(g)).toEqual(['staging-guestbook', 'production-guestbook', 'in-cluster-guestbook']);
    expect(g.applications.every((a) => a.source.chart === 'guestbook' && a.project === 'default')).toBe(true);
  });

  it('design-doc/clusters.yaml: Go syntax without goTemplate leaves {{.name}} as written, not a valid name', async () => {
    await expect(generate('design-doc/clusters.yaml')).rejects.toThrow(
      /ApplicationSet "guestbook": generated Application "\{\{\.name\}\}-guestbook": .*metadata\.name: must be a DNS subdomain name/,
    );
  });

  bothModes('design-doc/git-directory-discovery.yaml', (g) => {
    // "would produce four applications … using the directory basename as both the namespace and application name"
    expect(names(g)).toEqual(['argo-rollouts', 'argo-workflows', 'grafana', 'prometheus-operator']);
    expect(g.applications.map((a) => [a.source.path, a.destination.namespace])).toEqual([
      ['add-ons/argo-rollouts', 'argo-rollouts'],
      ['add-ons/argo-workflows', 'argo-workflows'],
      ['add-ons/grafana', 'grafana'],
      ['add-ons/prometheus-operator', 'prometheus-operator'],
    ]);
  });

  bothModes('design-doc/git-files-discovery.yaml', (g) => {
    expect(names(g)).toEqual([
      'engineering-dev-guestbook',
      'engineering-prod-guestbook',
      'finance-dev-guestbook',
      'finance-prod-guestbook',
    ]);
    expect(g.applications.map((a) => a.destination.server)).toEqual([
      'http://1.2.3.4',
      'http://2.4.6.8',
      'http://3.4.5.6',
      'http://4.5.6.7',
    ]);
  });

  bothModes('design-doc/git-files-literal.yaml', (g) => {
    expect(g.applications.map((a) => [a.name, a.source.path])).toEqual([
      ['engineering-dev-guestbook', 'apps/guestbook/v2.0'],
      ['engineering-prod-guestbook', 'apps/guestbook/v1.0'],
    ]);
  });

  bothModes('design-doc/list.yaml', (g) => {
    expect(g.applications.map((a) => [a.name, a.project, a.destination.server])).toEqual([
      ['engineering-dev-guestbook', 'dev', 'https://1.2.3.4'],
      ['engineering-prod-guestbook', 'prod', 'https://2.4.6.8'],
      ['finance-preprod-guestbook', 'preprod', 'https://9.8.7.6'],
    ]);
  });

  bothModes('design-doc/template-override.yaml', (g) => {
    // The generator's template wins where it sets a field; the rest comes from spec.template.
    expect(g.applications.map((a) => [a.name, a.project, a.source.path, a.source.targetRevision])).toEqual([
      ['engineering-dev-guestbook', 'project', 'engineering-dev-override', 'HEAD'],
      ['engineering-prod-guestbook', 'project2', 'engineering-prod-override2', 'HEAD'],
    ]);
  });

  it('design-doc/proposal/filters.yaml: the proposed `filters` field is not Argo CD’s and is refused by name', async () => {
    const example = 'design-doc/proposal/filters.yaml';
    const parsed = parseApplicationFile(await readFile(path.join(EXAMPLES, example), 'utf8'), example);
    expect(parsed.applicationSets).toEqual([]);
    expect(parsed.problems.join('\n')).toMatch(/filters\.yaml:\d+: ApplicationSet: .*filters/);
  });

  bothModes('git-generator-directory/git-directories-example.yaml', (g) => {
    expect(names(g)).toEqual(['argo-workflows', 'prometheus-operator']);
    expect(g.applications[0]?.source.path).toBe(
      'applicationset/examples/git-generator-directory/cluster-addons/argo-workflows',
    );
    expect(g.applications[0]?.syncPolicy?.syncOptions).toEqual(['CreateNamespace=true']);
  });

  bothModes('git-generator-directory/excludes/git-directories-exclude-example.yaml', (g) => {
    expect(names(g)).toEqual(['argo-workflows', 'prometheus-operator']);
  });

  bothModes('git-generator-files-discovery/git-generator-files.yaml', (g) => {
    expect(names(g)).toEqual(['engineering-dev-guestbook', 'engineering-prod-guestbook']);
  });

  bothModes('git-generator-files-discovery/excludes/git-files-exclude-example.yaml', (g) => {
    expect(names(g)).toEqual(['engineering-prod-guestbook']);
  });

  bothModes('template-override/template-overrides-example.yaml', (g) => {
    expect(g.applications.map((a) => [a.name, a.source.path])).toEqual([
      ['engineering-dev-guestbook', 'applicationset/examples/template-override/engineering-dev-override'],
    ]);
  });

  bothModes('matrix/cluster-and-git.yaml', (g) => {
    // "application_count = git directory * clusters"; a selector is given, so no in-cluster.
    expect(g.applications.map((a) => [a.name, a.project, a.destination.server])).toEqual([
      ['argo-workflows-staging', 'staging', 'https://1.2.3.4'],
      ['argo-workflows-production', 'production', 'https://2.4.6.8'],
      ['prometheus-operator-staging', 'staging', 'https://1.2.3.4'],
      ['prometheus-operator-production', 'production', 'https://2.4.6.8'],
    ]);
  });

  bothModes('matrix/list-and-git.yaml', (g) => {
    // "application_count = git directory * list entries"
    expect(g.applications.map((a) => [a.name, a.project, a.destination.server])).toEqual([
      ['argo-workflows-engineering-dev', 'dev', 'https://1.2.3.4'],
      ['argo-workflows-engineering-prod', 'prod', 'https://2.4.6.8'],
      ['prometheus-operator-engineering-dev', 'dev', 'https://1.2.3.4'],
      ['prometheus-operator-engineering-prod', 'prod', 'https://2.4.6.8'],
    ]);
  });

  it('matrix/list-and-list.yaml: its template reads .path.path, which no list gives: missingkey=error names it', async () => {
    await expect(generate('matrix/list-and-list.yaml')).rejects.toThrow(
      /ApplicationSet "list-and-list": spec\.template\.spec\.source\.path: .*map has no entry for key "path"/,
    );
  });

  it('matrix/list-and-list-fasttemplate.yaml: 2 × 2 Applications; the unknown {{path}} stays as written', async () => {
    const g = await generate('matrix/list-and-list-fasttemplate.yaml');
    expect(names(g)).toEqual([
      'engineering-dev-1',
      'engineering-dev-2',
      'engineering-prod-1',
      'engineering-prod-2',
    ]);
    expect(g.applications[0]?.source.path).toBe('{{path}}');
  });

  bothModes('matrix/matrix-and-union-in-matrix.yaml', (g) => {
    // "2*4=8 final parameter sets": the merge keeps engineering-dev and engineering-prod (engineering-test has no base).
    expect([...names(g)].sort()).toEqual(
      [
        'first-engineering-dev-1',
        'first-engineering-dev-2',
        'second-engineering-dev-1',
        'second-engineering-dev-2',
        'first-engineering-prod-1',
        'first-engineering-prod-2',
        'second-engineering-prod-1',
        'second-engineering-prod-2',
      ].sort(),
    );
  });

  it('merge/merge-clusters-and-list.yaml: later generators override by server (a labelled cluster gets kafka false)', async () => {
    const g = await generate('merge/merge-clusters-and-list.yaml');
    const params = (n: string) =>
      Object.fromEntries(
        (byName(g).get(n)?.source.helm?.parameters ?? []).map((p: { name: string; value: string }) => [
          p.name,
          p.value,
        ]),
      );
    expect([...names(g)].sort()).toEqual(['in-cluster', 'production', 'staging']);
    expect(params('staging')).toEqual({ kafka: 'false', redis: 'false' });
    expect(params('production')).toEqual({ kafka: 'true', redis: 'false' });
  });

  it('merge/merge-clusters-and-list-fasttemplate.yaml: the same with flat values keys', async () => {
    const g = await generate('merge/merge-clusters-and-list-fasttemplate.yaml');
    expect([...names(g)].sort()).toEqual(['in-cluster', 'production', 'staging']);
    const staging = byName(g).get('staging')?.source.helm?.parameters;
    expect(staging).toEqual([
      { name: 'kafka', value: 'false' },
      { name: 'redis', value: 'false' },
    ]);
  });

  it('merge/merge-two-matrixes: the list overrides in-cluster staging; `values.replicaCount` is a flat key only in fasttemplate', async () => {
    const replicas = (g: GeneratedApplications) =>
      Object.fromEntries(g.applications.map((a) => [a.name, a.source.helm?.parameters?.[0]?.value]));
    const go = await generate('merge/merge-two-matrixes.yaml');
    const fast = await generate('merge/merge-two-matrixes-fasttemplate.yaml');
    expect(Object.keys(replicas(go)).sort()).toEqual([
      'in-cluster-guestbook-prod',
      'in-cluster-guestbook-staging',
      'production-guestbook-prod',
      'production-guestbook-staging',
      'staging-guestbook-prod',
      'staging-guestbook-staging',
    ]);
    // Go templates keep the element's key `values.replicaCount` as one top-level key, not values.replicaCount
    // (Generators-Merge.md: nested merge keys do not work with goTemplate); fasttemplate's flat map takes it.
    expect(replicas(go)['in-cluster-guestbook-staging']).toBe('2');
    expect(replicas(fast)['in-cluster-guestbook-staging']).toBe('1');
    expect(replicas(fast)['staging-guestbook-staging']).toBe('2');
    expect(byName(go).get('in-cluster-guestbook-staging')?.destination.namespace).toBe('guestbook-non-prod');
  });

  for (const [example, generator] of [
    ['pull-request-generator/pull-request-example.yaml', 'pullRequest'],
    ['scm-provider-generator/scm-provider-example.yaml', 'scmProvider'],
    ['clusterDecisionResource/ducktype-example.yaml', 'clusterDecisionResource'],
  ] as const) {
    it(`${example}: ${generator} is refused by name and its Applications are said to be missing`, async () => {
      const g = await generate(example);
      expect(g.applications).toEqual([]);
      expect(g.refused).toEqual([expect.objectContaining({ generator, where: 'spec.generators[0]' })]);
      expect(g.refused[0]?.message).toMatch(
        new RegExp(
          `^spec\\.generators\\[0\\]\\.${generator}: not supported: it needs .*; the Applications this generator would generate are missing$`,
        ),
      );
    });
  }

  it('Generators-List.md "Dynamically generated elements": elementsYaml from a git file through toJson', async () => {
    const doc = await readFile(path.join(FIXTURES, 'docs', 'Generators-List.md'), 'utf8');
    const yaml = /## Dynamically generated elements[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const generateDoc = async (text: string) => {
      const parsed = parseApplicationFile(text, 'Generators-List.md');
      expect(parsed.problems).toEqual([]);
      return generateApplications(parsed.applicationSets[0] as never, { clusters: CLUSTERS, git });
    };
    // As written the template is a multi-source Application (one chart source); the components of the file become
    // the Applications.
    const g = await generateDoc(yaml);
    expect(
      g.applications.map((a) => {
        const [only] = a.sources ?? [];
        return [a.name, only?.chart, only?.repoURL, only?.targetRevision];
      }),
    ).toEqual([
      ['component1', 'podinfo', 'https://stefanprodan.github.io/podinfo', '6.3.2'],
      ['component2', 'podinfo', 'ghcr.io/stefanprodan/charts', '6.3.3'],
    ]);
  });
});
