/**
 * Generation beyond the examples: a git directory generator over a real repository picks up a new directory,
 * matrix git × list, missingkey=error naming the parameter, selector, values, templatePatch, the finalizer rule,
 * and the errors Argo CD gives (matrix of three, duplicate names, fasttemplate non-string values).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import { createGitRepositoryCache, type GitRepositoryCache } from '../git/git-repository-cache.js';
import { ApplicationSetSchema } from './applicationset-schema.js';
import { generateApplications } from './generate-applications.js';

let repo: GitFixture;
let git: GitRepositoryCache;

beforeAll(async () => {
  repo = await createGitFixture();
  await repo.commit({
    'apps/api/kustomization.yaml': 'resources: []\n',
    'apps/web_ui/kustomization.yaml': 'resources: []\n',
    'apps/.hidden/kustomization.yaml': 'resources: []\n',
    'envs/dev/config.yaml': 'region: eu-west-1\nreplicas: 2\nflags: { canary: true }\n',
    'envs/prod/config.yaml': 'region: us-east-1\nreplicas: 1000000\nflags: { canary: false }\n',
  });
  git = createGitRepositoryCache({
    cacheDir: path.join(repo.root, 'cache'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
});

afterAll(async () => {
  await repo?.cleanup();
});

/** An ApplicationSet from YAML (the repo URL substituted for REPO). */
function appSet(yaml: string) {
  return ApplicationSetSchema.parse(parse(yaml.replaceAll('REPO', repo.url)));
}

async function generate(yaml: string) {
  return generateApplications({ manifest: appSet(yaml), file: 'set.yaml', line: 1 }, { clusters: [], git });
}

const directories = (goTemplate: boolean) => `
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: addons }
spec:
  goTemplate: ${goTemplate}
  generators:
  - git: { repoURL: REPO, revision: main, directories: [{ path: 'apps/*' }] }
  template:
    metadata: { name: '${goTemplate ? '{{.path.basenameNormalized}}' : '{{path.basenameNormalized}}'}' }
    spec:
      source: { repoURL: REPO, targetRevision: main, path: '${goTemplate ? '{{.path.path}}' : '{{path}}'}' }
      destination: { server: https://kubernetes.default.svc, namespace: '${goTemplate ? '{{index .path.segments 1 | normalize}}' : '{{path[1]}}'}' }
`;

describe('generateApplications', () => {
  it('git directories: a directory pushed to the branch becomes an Application at the next generation', async () => {
    const before = await generate(directories(true));
    expect(before.applications.map((a) => a.name)).toEqual(['api', 'web-ui']);

    await repo.commit({ 'apps/worker/kustomization.yaml': 'resources: []\n' });
    const after = await generate(directories(true));
    expect(after.applications.map((a) => [a.name, a.source.path, a.destination.namespace])).toEqual([
      ['api', 'apps/api', 'api'],
      ['web-ui', 'apps/web_ui', 'web-ui'],
      ['worker', 'apps/worker', 'worker'],
    ]);
    const fast = await generate(directories(false));
    expect(fast.applications.map((a) => [a.name, a.source.path, a.destination.namespace])).toEqual([
      ['api', 'apps/api', 'api'],
      ['web-ui', 'apps/web_ui', 'web_ui'],
      ['worker', 'apps/worker', 'worker'],
    ]);
  });

  it('matrix git × list: every directory with every list element, the list rendered with the git parameters', async () => {
    const yaml = (goTemplate: boolean) => {
      const t = (go: string, fast: string) => (goTemplate ? go : fast);
      return `
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: matrix }
spec:
  goTemplate: ${goTemplate}
  generators:
  - matrix:
      generators:
      - git: { repoURL: REPO, revision: main, files: [{ path: 'envs/*/config.yaml' }] }
      - list:
          elements:
          - { app: api, ns: '${t('{{.path.basename}}', '{{path.basename}}')}-api' }
          - { app: web, ns: '${t('{{.path.basename}}', '{{path.basename}}')}-web' }
  template:
    metadata:
      name: '${t('{{.app}}-{{.path.basename}}', '{{app}}-{{path.basename}}')}'
      labels: { region: '${t('{{.region}}', '{{region}}')}', replicas: '${t('{{.replicas}}', '{{replicas}}')}', canary: '${t('{{.flags.canary}}', '{{flags.canary}}')}' }
    spec:
      source: { repoURL: REPO, path: 'apps/{{${t('.app', 'app')}}}' }
      destination: { server: https://kubernetes.default.svc, namespace: '{{${t('.ns', 'ns')}}}' }
`;
    };
    for (const goTemplate of [true, false]) {
      const g = await generate(yaml(goTemplate));
      expect(g.applications.map((a) => [a.name, a.destination.namespace, a.labels])).toEqual([
        ['api-dev', 'dev-api', { region: 'eu-west-1', replicas: '2', canary: 'true' }],
        ['web-dev', 'dev-web', { region: 'eu-west-1', replicas: '2', canary: 'true' }],
        // Numbers from files are Go float64 in both modes: 1000000 prints as 1e+06.
        ['api-prod', 'prod-api', { region: 'us-east-1', replicas: '1e+06', canary: 'false' }],
        ['web-prod', 'prod-web', { region: 'us-east-1', replicas: '1e+06', canary: 'false' }],
      ]);
    }
  });

  it('goTemplate with missingkey=error fails naming the parameter and the field', async () => {
    const yaml = `
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: strict }
spec:
  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
  - list: { elements: [{ cluster: dev }] }
  template:
    metadata: { name: '{{.cluster}}' }
    spec:
      source: { repoURL: https://example.com/r.git, path: '{{.appPath}}' }
      destination: { server: https://kubernetes.default.svc, namespace: x }
`;
    await expect(generate(yaml)).rejects.toThrow(
      'set.yaml:1: ApplicationSet "strict": spec.template.spec.source.path: failed to execute go template "{{.appPath}}": executing at <.appPath>: map has no entry for key "appPath"',
    );
    // Without the option the same template renders <no value>, as Argo CD does.
    const lenient = await generate(yaml.replace('goTemplateOptions: ["missingkey=error"]', ''));
    expect(lenient.applications[0]?.source.path).toBe('<no value>');
  });

  it('selector keeps the parameter sets whose flattened parameters match; values are rendered per set', async () => {
    const g = await generate(`
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: selected }
spec:
  goTemplate: true
  generators:
  - git:
      repoURL: REPO
      revision: main
      files: [{ path: 'envs/**/config.yaml' }]
      values: { owner: 'team-{{.path.basename}}', literal: '{{ "x" }}' }
    selector:
      matchExpressions: [{ key: region, operator: In, values: [us-east-1] }]
  template:
    metadata: { name: '{{.path.basename}}', annotations: { owner: '{{.values.owner}}', l: '{{.values.literal}}' } }
    spec:
      source: { repoURL: REPO, path: '{{.path.path}}' }
      destination: { server: https://kubernetes.default.svc, namespace: x }
`);
    expect(g.applications.map((a) => [a.name, a.annotations])).toEqual([
      ['prod', { owner: 'team-prod', l: 'x' }],
    ]);
  });

  it('templatePatch is rendered and merged (lists replaced, spec.project kept); preserveResourcesOnDeletion drops the finalizer', async () => {
    const g = await generate(`
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: patched, namespace: gitops }
spec:
  goTemplate: true
  syncPolicy: { preserveResourcesOnDeletion: true }
  generators:
  - list: { elements: [{ name: a, auto: true }, { name: b, auto: false }] }
  template:
    metadata: { name: '{{.name}}' }
    spec:
      project: team
      source: { repoURL: https://example.com/r.git, path: 'apps/{{.name}}' }
      destination: { server: https://kubernetes.default.svc, namespace: '{{.name}}' }
      syncPolicy: { syncOptions: [CreateNamespace=true] }
  templatePatch: |
    spec:
      project: hijacked
    {{- if .auto }}
      syncPolicy:
        automated: { prune: true }
        syncOptions: [ServerSideApply=true]
    {{- end }}
`);
    const [a, b] = g.applications;
    expect(a?.syncPolicy).toEqual({ automated: { prune: true }, syncOptions: ['ServerSideApply=true'] });
    expect(b?.syncPolicy).toEqual({ syncOptions: ['CreateNamespace=true'] });
    expect(g.applications.map((x) => [x.project, x.namespace, x.finalizers])).toEqual([
      ['team', 'gitops', []],
      ['team', 'gitops', []],
    ]);
  });

  it('refuses what Argo CD refuses: three matrix children, duplicate names, non-string values in fasttemplate lists', async () => {
    const base = (generators: string, name = '{{.n}}', goTemplate = true) => `
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: bad }
spec:
  goTemplate: ${goTemplate}
  generators: ${generators}
  template:
    metadata: { name: '${name}' }
    spec:
      source: { repoURL: https://example.com/r.git, path: x }
      destination: { server: https://kubernetes.default.svc, namespace: x }
`;
    const list = '{ list: { elements: [{ n: a }] } }';
    await expect(generate(base(`[{ matrix: { generators: [${list}, ${list}, ${list}] } }]`))).rejects.toThrow(
      'spec.generators[0].matrix: found more than two generators, Matrix support only two',
    );
    await expect(generate(base(`[${list}, ${list}]`))).rejects.toThrow(
      'ApplicationSet bad contains applications with duplicate name: a',
    );
    await expect(generate(base('[{ list: { elements: [{ n: 3 }] } }]', '{{n}}', false))).rejects.toThrow(
      'spec.generators[0].list.elements[0].n: error parsing value as string',
    );
    await expect(
      generate(base('[{ list: { elements: [{ n: a }] }, git: { repoURL: x, directories: [{path: a}] } }]')),
    ).rejects.toThrow('found more than one generator (list, git)');
  });

  it('notes, by name, the fields that are read but change nothing in wavesync', async () => {
    const g = await generate(`
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: noted }
spec:
  generators:
  - git: { repoURL: REPO, revision: main, directories: [{ path: 'apps/*' }], requeueAfterSeconds: 30 }
  strategy: { type: RollingSync, rollingSync: { steps: [{ matchExpressions: [{ key: env, operator: In, values: [dev] }] }] }, deletionOrder: Reverse }
  preservedFields: { labels: [team] }
  ignoreApplicationDifferences: [{ jsonPointers: [/spec/source/targetRevision] }]
  template:
    metadata: { name: '{{path.basenameNormalized}}' }
    spec:
      source: { repoURL: REPO, path: '{{path}}' }
      destination: { server: https://kubernetes.default.svc, namespace: x }
`);
    expect(g.notes.map((n) => n.split(':')[0])).toEqual([
      'spec.strategy.deletionOrder Reverse',
      'spec.preservedFields',
      'spec.ignoreApplicationDifferences',
      'requeueAfterSeconds',
    ]);
  });
});
