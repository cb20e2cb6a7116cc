import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { sharedFixturesDir } from '../../test/support/shared-fixtures.js';
import { parseApplicationFile } from './parse-applications.js';

const GUESTBOOK = `# the guestbook
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: guestbook
  labels: { wavesync.io/environment: staging }
  finalizers: [resources-finalizer.argocd.argoproj.io]
spec:
  project: team-a
  source:
    repoURL: https://github.com/argoproj/argocd-example-apps.git
    targetRevision: v1.2.0
    path: guestbook
    directory: { recurse: true, include: '{a,b}.yaml', jsonnet: {} }
  destination: { server: https://kubernetes.default.svc, namespace: guestbook }
  ignoreDifferences: []
  syncPolicy:
    automated: { prune: true, selfHeal: true }
    syncOptions: [CreateNamespace=true]
    retry: { limit: 2, backoff: { duration: 5s, factor: 2, maxDuration: 3m } }
`;

describe('parseApplicationFile', () => {
  it('maps every honoured field and defaults the namespace and project', () => {
    const parsed = parseApplicationFile(GUESTBOOK, 'apps/guestbook.yaml');

    expect(parsed.problems).toEqual([]);
    const [app] = parsed.applications;
    expect(app).toMatchObject({
      name: 'guestbook',
      namespace: 'argocd',
      project: 'team-a',
      source: {
        repoURL: 'https://github.com/argoproj/argocd-example-apps.git',
        targetRevision: 'v1.2.0',
        path: 'guestbook',
        directory: { recurse: true, include: '{a,b}.yaml' },
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['CreateNamespace=true'],
        retry: { limit: 2, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
      },
      finalizers: ['resources-finalizer.argocd.argoproj.io'],
      labels: { 'wavesync.io/environment': 'staging' },
      origin: 'apps/guestbook.yaml:2',
    });
  });

  it('keeps unknown fields in the manifest and lists their paths', () => {
    const parsed = parseApplicationFile(GUESTBOOK, 'g.yaml');

    expect(parsed.unknownFields).toEqual([
      {
        name: 'guestbook',
        paths: expect.arrayContaining(['spec.ignoreDifferences', 'spec.source.directory.jsonnet']),
      },
    ]);
    expect(parsed.applications[0]?.manifest.spec).toMatchObject({ ignoreDifferences: [] });
  });

  it('reports invalid fields by name with file and line, and keeps parsing later documents', () => {
    const text = [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata: { name: bad }',
      'spec:',
      '  source: { repoURL: x, path: 7 }',
      '  destination: { server: s, name: n }',
      '  syncPolicy: { automated: { prune: "yes" } }',
      '---',
      GUESTBOOK,
    ].join('\n');

    const parsed = parseApplicationFile(text, 'apps.yaml');

    expect(parsed.problems).toEqual([
      expect.stringMatching(/^apps\.yaml:5: spec\.source\.path: .*string/),
      "apps.yaml:6: spec.destination: application destination can't have both name and server defined",
      expect.stringMatching(/^apps\.yaml:7: spec\.syncPolicy\.automated\.prune: .*boolean/),
    ]);
    expect(parsed.applications.map((a) => a.name)).toEqual(['guestbook']);
  });

  it('refuses a name longer than 63 characters, the limit of the tracking label value', () => {
    const name = 'a'.repeat(64);
    const parsed = parseApplicationFile(
      `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: { name: ${name} }\nspec:\n  source: { repoURL: "", path: x }\n  destination: { name: in-cluster }\n`,
      'long.yaml',
    );

    expect(parsed.applications).toEqual([]);
    expect(parsed.problems).toEqual([
      expect.stringMatching(
        /^long\.yaml:3: metadata\.name: must be at most 63 characters: it is the value of the tracking label/,
      ),
    ]);
  });

  it('names missing required fields', () => {
    const parsed = parseApplicationFile(
      'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {}\n',
      'a.yaml',
    );

    expect(parsed.problems).toEqual([
      expect.stringMatching(/^a\.yaml:3: metadata\.name: /),
      expect.stringMatching(/^a\.yaml:1: spec: /),
    ]);
  });

  it('reads multi-source Applications: every source in order, the first as source, refs checked', () => {
    const head = 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: { name: m }\nspec:\n';
    const multi = parseApplicationFile(
      `${head}  destination: { namespace: m }\n  sources:\n` +
        '    - { repoURL: https://charts.example.com, chart: redis, targetRevision: 17.x, helm: { valueFiles: [$values/redis.yaml] } }\n' +
        '    - { repoURL: https://git.example.com/cfg.git, ref: values }\n',
      'm.yaml',
    );

    expect(multi.problems).toEqual([]);
    expect(multi.applications[0]?.sources).toEqual([
      {
        repoURL: 'https://charts.example.com',
        chart: 'redis',
        targetRevision: '17.x',
        helm: { valueFiles: ['$values/redis.yaml'] },
      },
      { repoURL: 'https://git.example.com/cfg.git', ref: 'values' },
    ]);
    expect(multi.applications[0]?.source).toEqual(multi.applications[0]?.sources?.[0]);

    const problems = parseApplicationFile(
      `${head}  destination: {}\n  sources:\n    - { repoURL: a, ref: x }\n    - { repoURL: b, ref: x }\n    - { repoURL: c, chart: c, ref: y }\n`,
      'm.yaml',
    ).problems;
    expect(problems).toEqual([
      'm.yaml:8: spec.sources[1].ref: ref "x" is already the name of sources[0]',
      'm.yaml:9: spec.sources[2].ref: a chart source cannot be a ref source; refs point into git repositories',
    ]);
    expect(parseApplicationFile(`${head}  destination: {}\n  sources: []\n`, 'm.yaml').problems).toEqual([
      'm.yaml:6: spec.sources: needs at least one source',
    ]);
    expect(
      parseApplicationFile(`${head}  destination: {}\n  source:\n    helm: { version: v2 }\n`, 'm.yaml')
        .problems,
    ).toEqual(["m.yaml:7: spec.source.helm.version: only Helm v3 exists: use 'v3' or leave it out"]);
    expect(parseApplicationFile(`${head}  destination: {}\n`, 'm.yaml').problems).toEqual([
      'm.yaml:5: spec.source: needs spec.source or spec.sources',
    ]);
  });

  it('skips documents of other kinds and reports YAML errors with their line', () => {
    const parsed = parseApplicationFile('apiVersion: v1\nkind: ConfigMap\n---\nkey: [unclosed\n', 'x.yaml');

    expect(parsed.skipped).toEqual(['x.yaml:1: v1/ConfigMap is not an Application; skipped']);
    expect(parsed.problems).toEqual([expect.stringMatching(/^x\.yaml:5: Flow sequence/)]);
  });

  it('reads the Argo CD e2e self-managed Application unchanged', async () => {
    const file = sharedFixturesDir('argo-cd-e2e/self-managed-app/resources.yaml');

    const parsed = parseApplicationFile(await readFile(file, 'utf8'), file);

    expect(parsed.problems).toEqual([]);
    expect(parsed.applications[0]).toMatchObject({
      name: 'test-self-managed-apps',
      source: {
        repoURL: 'https://github.com/argoproj/argo-cd.git',
        targetRevision: 'HEAD',
        path: 'self-managed-app',
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd-e2e' },
    });
  });
});

describe('parseApplicationFile: automated.enabled and revisionHistoryLimit', () => {
  const doc = (syncPolicy: string) =>
    `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: { name: shop }
spec:
  revisionHistoryLimit: 3
  source: { repoURL: "", path: a }
  destination: { namespace: shop }
  syncPolicy: ${syncPolicy}
`;

  it('treats automated.enabled: false as no automated sync (Argo CD 3.x), and keeps the other policy fields', () => {
    const [off] = parseApplicationFile(
      doc('{ automated: { enabled: false, selfHeal: true }, syncOptions: [A=b] }'),
      'a.yaml',
    ).applications;
    expect(off?.syncPolicy).toEqual({ syncOptions: ['A=b'] });
    expect(off?.revisionHistoryLimit).toBe(3);

    const [on] = parseApplicationFile(
      doc('{ automated: { enabled: true, selfHeal: true } }'),
      'a.yaml',
    ).applications;
    expect(on?.syncPolicy?.automated).toEqual({ enabled: true, selfHeal: true });
  });
});
