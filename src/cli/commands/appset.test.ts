import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import { runCommand } from '../../../test/support/run-command.js';
import { sharedFixturesDir } from '../../../test/support/shared-fixtures.js';
import { registerAppsetCommand } from './appset.js';
import { registerPlanCommand } from './plan.js';

const examples = (file: string) =>
  sharedFixturesDir('argo-cd-applicationset', 'applicationset', 'examples', file);
const appset = (...args: string[]) => runCommand(registerAppsetCommand, ['appset', ...args]);

let repo: GitFixture;
let config: string;

beforeAll(async () => {
  repo = await createGitFixture();
  await repo.commit({
    'addons/metrics/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: metrics-config }\n',
    'addons/logging/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: logging-config }\n',
  });
  config = path.join(repo.root, 'wavesync.yaml');
  await writeFile(
    config,
    [
      'clusters:',
      '  - { name: staging, server: https://1.2.3.4, context: kind-staging, labels: { environment: staging } }',
      '  - { name: prod, server: https://2.4.6.8, context: kind-prod, labels: { environment: production } }',
      'applications: [{ file: addons.yaml }]',
      `defaults: { gitCacheDir: ${path.join(repo.root, 'cache')} }`,
      '',
    ].join('\n'),
  );
  // An ApplicationSet with a git directory generator, read by `appset` and, through wavesync.yaml, by `plan --app`.
  await writeFile(
    path.join(repo.root, 'addons.yaml'),
    `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: addons }
spec:
  goTemplate: true
  generators: [{ git: { repoURL: "${repo.url}", revision: main, directories: [{ path: "addons/*" }] } }]
  template:
    metadata: { name: '{{.path.basename}}' }
    spec:
      source: { repoURL: "${repo.url}", targetRevision: main, path: '{{.path.path}}' }
      destination: { server: https://kubernetes.default.svc, namespace: '{{.path.basename}}' }
`,
  );
});

afterAll(async () => {
  await repo?.cleanup();
});

describe('wavesync appset', () => {
  it('prints the generated Applications as YAML documents, clusters from wavesync.yaml', async () => {
    const { stdout, stderr, exitCode } = await appset(
      examples('cluster/cluster-example.yaml'),
      '--config',
      config,
    );
    expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 });
    const apps = parseAllDocuments(stdout).map((d) => d.toJS());
    expect(apps.map((a) => [a.kind, a.metadata.name, a.spec.destination.server])).toEqual([
      ['Application', 'staging-guestbook', 'https://1.2.3.4'],
      ['Application', 'prod-guestbook', 'https://2.4.6.8'],
      ['Application', 'in-cluster-guestbook', 'https://kubernetes.default.svc'],
    ]);
    expect(apps[0].metadata.ownerReferences[0]).toMatchObject({ kind: 'ApplicationSet', name: 'guestbook' });
  });

  it('--output json: a git directory generator read through the git cache', async () => {
    const file = path.join(repo.root, 'addons.yaml');
    const { stdout, stderr, exitCode } = await appset(file, '-o', 'json', '--config', config);
    expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 });
    expect(JSON.parse(stdout).map((a: { metadata: { name: string } }) => a.metadata.name)).toEqual([
      'logging',
      'metrics',
    ]);
  });

  it('refuses a pullRequest generator by name, says its Applications are missing, exits 2', async () => {
    const { stdout, stderr, exitCode } = await appset(
      examples('pull-request-generator/pull-request-example.yaml'),
      '-o',
      'json',
      '--config',
      config,
    );
    expect(JSON.parse(stdout)).toEqual([]);
    expect(stderr).toBe(
      "error: spec.generators[0].pullRequest: not supported: it needs the SCM provider's pull request API, which wavesync cannot reach; the Applications this generator would generate are missing (ApplicationSet myapp)\n",
    );
    expect(exitCode).toBe(2);
  });

  it('an invalid ApplicationSet is one error line naming the field, nothing printed, exit 2', async () => {
    const { stdout, stderr, exitCode } = await appset(
      examples('design-doc/proposal/filters.yaml'),
      '--config',
      config,
    );
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: invalid ApplicationSet:\n.*filters\.yaml:\d+: ApplicationSet: .*filters/);
    expect(exitCode).toBe(2);
  });

  it('a template error names the line of the offending field, not the first line of the document', async () => {
    const file = path.join(repo.root, 'missing-key.yaml');
    await writeFile(
      file,
      [
        'apiVersion: argoproj.io/v1alpha1', // 1
        'kind: ApplicationSet', // 2
        'metadata: { name: guestbook }', // 3
        'spec:', // 4
        '  goTemplate: true', // 5
        '  goTemplateOptions: ["missingkey=error"]', // 6
        '  generators: [{ list: { elements: [{ cluster: dev }] } }]', // 7
        '  template:', // 8
        "    metadata: { name: '{{.cluster}}-guestbook' }", // 9
        '    spec:', // 10
        '      project: default', // 11
        '      source:', // 12
        '        repoURL: https://example.com/x.git', // 13
        "        path: 'apps/{{.nope}}'", // 14
        '      destination: { server: https://kubernetes.default.svc, namespace: guestbook }', // 15
        '',
      ].join('\n'),
    );
    const { stdout, stderr, exitCode } = await appset(file);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^error: .*missing-key\.yaml:14: ApplicationSet "guestbook": spec\.template\.spec\.source\.path: .*map has no entry for key "nope"/,
    );
    expect(exitCode).toBe(2);
  });

  it('a generated Application that is invalid names the template field that made it', async () => {
    const file = path.join(repo.root, 'bad-destination.yaml');
    await writeFile(
      file,
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: ApplicationSet',
        'metadata: { name: guestbook }',
        'spec:',
        '  generators: [{ list: { elements: [{ cluster: dev }] } }]',
        '  template:',
        "    metadata: { name: '{{cluster}}-guestbook' }",
        '    spec:',
        '      project: default',
        '      source: { repoURL: https://example.com/x.git, path: apps }',
        '      destination:',
        '        server: 42',
        '',
      ].join('\n'),
    );
    const { stderr, exitCode } = await appset(file);
    expect(stderr).toMatch(
      /bad-destination\.yaml:1[12]: ApplicationSet "guestbook": generated Application "dev-guestbook": spec\.destination/,
    );
    expect(exitCode).toBe(2);
  });

  it('warns, on stderr, of the fields of each generated Application as of a written one; stdout stays valid YAML and JSON', async () => {
    const file = path.join(repo.root, 'warned.yaml');
    await writeFile(
      file,
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: ApplicationSet',
        'metadata: { name: guestbook }',
        'spec:',
        '  generators: [{ list: { elements: [{ cluster: dev }, { cluster: qa }] } }]',
        '  template:',
        "    metadata: { name: '{{cluster}}-guestbook' }",
        '    spec:',
        '      project: default',
        '      source: { repoURL: https://example.com/x.git, path: apps, targetRevison: main }',
        "      destination: { server: https://kubernetes.default.svc, namespace: '{{cluster}}' }",
        '      syncPolicy: { syncOptions: [CreateNamespce=true] }',
        '',
      ].join('\n'),
    );
    const expected = (app: string) => [
      `warning: Application ${app} (ApplicationSet guestbook): spec.source.targetRevison: not a field of Argo CD's Application (did you mean spec.source.targetRevision?); ignored (${file}:1)`,
      `warning: Application ${app} (ApplicationSet guestbook): spec.syncPolicy.syncOptions: unknown sync option "CreateNamespce=true" (did you mean CreateNamespace=true?); Argo CD ignores it (${file}:1)`,
    ];

    const yamlRun = await appset(file);
    expect(yamlRun.exitCode).toBe(0);
    expect(yamlRun.stderr.trimEnd().split('\n')).toEqual([
      ...expected('dev-guestbook'),
      ...expected('qa-guestbook'),
    ]);
    const docs = parseAllDocuments(yamlRun.stdout);
    expect(docs.flatMap((d) => d.errors)).toEqual([]);
    expect(docs.map((d) => d.toJS().metadata.name)).toEqual(['dev-guestbook', 'qa-guestbook']);

    const jsonRun = await appset(file, '-o', 'json');
    expect(jsonRun.exitCode).toBe(0);
    expect(jsonRun.stderr).toBe(yamlRun.stderr);
    expect(JSON.parse(jsonRun.stdout).map((a: { metadata: { name: string } }) => a.metadata.name)).toEqual([
      'dev-guestbook',
      'qa-guestbook',
    ]);
  });

  it('a field wavesync refuses in the template refuses the generated Application by name: nothing printed, exit 2', async () => {
    const file = path.join(repo.root, 'refused.yaml');
    await writeFile(
      file,
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: ApplicationSet',
        'metadata: { name: guestbook }',
        'spec:',
        '  generators: [{ list: { elements: [{ cluster: dev }] } }]',
        '  template:',
        "    metadata: { name: '{{cluster}}-guestbook' }",
        '    spec:',
        '      project: default',
        '      source: { repoURL: https://example.com/x.git, path: apps }',
        '      sourceHydrator: { drySource: { repoURL: https://example.com/x.git, path: apps } }',
        '      destination: { server: https://kubernetes.default.svc, namespace: dev }',
        '',
      ].join('\n'),
    );
    const { stdout, stderr, exitCode } = await appset(file);
    expect(stdout).toBe('');
    expect(stderr).toContain('generated Application "dev-guestbook": spec.sourceHydrator: source hydration');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(exitCode).toBe(2);
  });

  it('a generated Application is planned by `plan --app` as /sync renders it (registry, git checkout, namespace)', async () => {
    const { stdout, stderr, exitCode } = await runCommand(registerPlanCommand, [
      'plan',
      '--app',
      'logging',
      '--config',
      config,
      '--output',
      'json',
    ]);
    expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 });
    const plan = JSON.parse(stdout) as {
      application: { name: string; namespace: string };
      tasks: { kind: string; name: string; namespace: string }[];
    };
    expect(plan.application).toMatchObject({ name: 'logging', namespace: 'logging' });
    expect(plan.tasks.map((t) => `${t.kind}/${t.namespace}/${t.name}`)).toEqual([
      'ConfigMap/logging/logging-config',
    ]);
  });
});
