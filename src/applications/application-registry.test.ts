import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure } from '../../test/support/failure.js';
import { createGitFixture } from '../../test/support/git-fixture.js';
import { BotError } from '../domain/index.js';
import { ClusterError } from '../engine/index.js';
import { parseSettings } from '../settings/index.js';
import { createApplicationRegistry } from './application-registry.js';
import { createGitRepositoryCache } from './git/git-repository-cache.js';

function application(name: string, extra = ''): string {
  return [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata:',
    `  name: ${name}`,
    extra,
    'spec:',
    '  source: { repoURL: "", path: manifests/' + name + ' }',
    '  destination: { server: https://kubernetes.default.svc, namespace: ' + name + ' }',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wavesync-registry-'));
  await mkdir(path.join(root, 'applications/team'), { recursive: true });
  await writeFile(path.join(root, 'applications/guestbook.yaml'), application('guestbook'));
  await writeFile(
    path.join(root, 'applications/team/payments.yml'),
    application('payments', '  labels: { wavesync.io/environment: production }'),
  );
  await writeFile(path.join(root, 'applications/README.md'), '# not a manifest');
  await writeFile(
    path.join(root, 'extra.yaml'),
    `${application('sync-waves')}\n---\napiVersion: v1\nkind: ConfigMap\n`,
  );
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function settings(yaml: string) {
  return parseSettings(yaml, path.join(root, 'wavesync.yaml'));
}

describe('createApplicationRegistry', () => {
  it('reads directories recursively and single files, sorted by name', async () => {
    const registry = await createApplicationRegistry(
      settings('applications:\n  - directory: applications\n  - file: extra.yaml\n'),
    );

    expect(registry.names()).toEqual(['guestbook', 'payments', 'sync-waves']);
    expect(registry.get('payments').origin).toBe(path.join(root, 'applications/team/payments.yml:1'));
    expect(registry.describe('payments')).toEqual({
      name: 'payments',
      environment: 'production',
      project: 'default',
      destination: { server: 'https://kubernetes.default.svc', namespace: 'payments' },
      source: { repoURL: '', path: 'manifests/payments' },
      origin: path.join(root, 'applications/team/payments.yml:1'),
    });
    expect(registry.describe('guestbook')?.environment).toBeUndefined();
    expect(registry.describe('nope')).toBeUndefined();
  });

  it('describes a multi-source Application by its first source with revisions', async () => {
    await writeFile(
      path.join(root, 'multi.yaml'),
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata: { name: multi }',
        'spec:',
        '  destination: { namespace: multi }',
        '  sources:',
        '    - { repoURL: "", path: manifests/local }',
        '    - { repoURL: https://charts.example, chart: redis, targetRevision: 17.x }',
      ].join('\n'),
    );
    const registry = await createApplicationRegistry(settings('applications:\n  - file: multi.yaml\n'));

    expect(registry.get('multi').sources).toHaveLength(2);
    expect(registry.describe('multi')?.source).toEqual({
      repoURL: 'https://charts.example',
      chart: 'redis',
      targetRevision: '17.x',
    });
  });

  it('suggests the closest names for an unknown application', async () => {
    const registry = await createApplicationRegistry(
      settings('applications:\n  - directory: applications\n'),
    );

    expect(() => registry.get('gustbook')).toThrow(
      'No application named "gustbook". Did you mean guestbook?',
    );
    let caught: unknown;
    try {
      registry.get('kafka');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BotError);
    expect(caught).toMatchObject({ code: 'application_not_found', message: 'No application named "kafka".' });
  });

  it('names both places of a duplicate and every invalid Application', async () => {
    await writeFile(
      path.join(root, 'dup.yaml'),
      `${application('guestbook')}\n---\n${application('Bad_Name')}\n`,
    );

    const error = await failure<BotError>(
      createApplicationRegistry(settings('applications:\n  - directory: applications\n  - file: dup.yaml\n')),
    );

    expect(error.code).toBe('invalid_manifest');
    expect(error.message).toContain(
      `${path.join(root, 'dup.yaml')}:1: Application "guestbook" is already defined at ${path.join(root, 'applications/guestbook.yaml')}:1`,
    );
    expect(error.message).toContain(
      `${path.join(root, 'dup.yaml')}:12: metadata.name: must be a DNS subdomain name`,
    );
  });

  it('keeps the previous Applications when a reload fails, and picks up changes when it succeeds', async () => {
    const registry = await createApplicationRegistry(
      settings('applications:\n  - directory: applications\n'),
    );
    await writeFile(path.join(root, 'applications/guestbook.yaml'), 'kind: Application\nmetadata: [\n');

    await expect(registry.reload()).rejects.toThrow(BotError);
    expect(registry.names()).toEqual(['guestbook', 'payments']);

    await writeFile(path.join(root, 'applications/guestbook.yaml'), application('guestbook-v2'));
    await registry.reload();
    expect(registry.names()).toEqual(['guestbook-v2', 'payments']);
  });

  it('names a missing directory', async () => {
    await expect(
      createApplicationRegistry(settings('applications:\n  - directory: nowhere\n')),
    ).rejects.toThrow(`applications: cannot read directory ${path.join(root, 'nowhere')}`);
  });

  it('reads Applications from a git repository at a revision', async () => {
    const fixture = await createGitFixture();
    try {
      await fixture.commit({
        'argocd/apps/guestbook.yaml': application('guestbook'),
        'argocd/README.md': '#',
      });
      fixture.tag('v1');
      await fixture.commit({ 'argocd/apps/rails.yaml': application('rails') });
      const git = createGitRepositoryCache({
        cacheDir: path.join(root, 'cache'),
        env: { PATH: process.env.PATH },
      });
      const yaml = (rev: string) =>
        `applications:\n  - git: { repoURL: "${fixture.url}", revision: ${rev}, path: argocd/apps }\n`;

      const atTag = await createApplicationRegistry(settings(yaml('v1')), { git });
      const atHead = await createApplicationRegistry(settings(yaml('main')), { git });

      expect(atTag.names()).toEqual(['guestbook']);
      expect(atHead.names()).toEqual(['guestbook', 'rails']);
      expect(atHead.get('rails').origin).toMatch(new RegExp(`^${fixture.url}@[0-9a-f]{7}:rails\\.yaml:1$`));
    } finally {
      await fixture.cleanup();
    }
  });

  it('reads Application objects from a cluster namespace through the injected lister', async () => {
    const seen: unknown[] = [];
    const registry = await createApplicationRegistry(
      settings('applications:\n  - cluster: { namespace: gitops }\n'),
      {
        clusterApplications: async (source) => {
          seen.push(source);
          return [
            {
              apiVersion: 'argoproj.io/v1alpha1',
              kind: 'Application',
              metadata: { name: 'live-app', namespace: 'gitops', uid: 'u1', resourceVersion: '7' },
              spec: { source: { repoURL: '', path: 'x' }, destination: { name: 'in-cluster' } },
              status: { health: { status: 'Healthy' } },
            },
          ];
        },
      },
    );

    // Applications, then the ApplicationSets of the same namespace.
    expect(seen).toEqual([
      { namespace: 'gitops', context: undefined },
      { namespace: 'gitops', context: undefined, kind: 'ApplicationSet' },
    ]);
    expect(registry.get('live-app')).toMatchObject({
      namespace: 'gitops',
      origin: 'cluster:current/gitops/live-app:1',
    });
  });

  it('reads a cluster source leniently: invalid objects skipped with a warning, the file copy of a name wins, no CRD means none', async () => {
    const warnings: unknown[] = [];
    const logger = { debug: () => undefined, warn: (fields: unknown) => void warnings.push(fields) };
    const objectNamed = (name: string, spec: object) => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name, namespace: 'argocd' },
      spec,
    });
    const valid = { source: { repoURL: '', path: 'x' }, destination: { name: 'in-cluster' } };
    const registry = await createApplicationRegistry(
      settings('applications:\n  - directory: applications\n  - cluster: { namespace: argocd }\n'),
      {
        logger,
        clusterApplications: async () => [
          objectNamed('child', valid),
          objectNamed('broken', { destination: { name: 'in-cluster' } }),
          objectNamed('guestbook', valid),
        ],
      },
    );

    expect(registry.names()).toEqual(['child', 'guestbook', 'payments']);
    expect(registry.get('guestbook').origin).toBe(path.join(root, 'applications/guestbook.yaml:1'));
    expect(JSON.stringify(warnings)).toContain('broken');

    const notServed = Object.assign(
      new ClusterError('list argoproj.io/v1alpha1 Application: not found', {
        statusCode: 404,
        transient: false,
      }),
    );
    const withoutCrd = await createApplicationRegistry(
      settings('applications:\n  - directory: applications\n  - cluster: { namespace: argocd }\n'),
      { logger, clusterApplications: async () => Promise.reject(notServed) },
    );
    expect(withoutCrd.names()).toEqual(['guestbook', 'payments']);
  });
});

describe('createApplicationRegistry: warnings at load', () => {
  it('warns (level warn, not debug) about a field wavesync treats differently and a plugin wavesync.yaml does not declare', async () => {
    await writeFile(
      path.join(root, 'plugin.yaml'),
      application('lovely').replace(
        'path: manifests/lovely }',
        'path: manifests/lovely, plugin: { name: argocd-lovely-plugin }, kustomise: {} }',
      ),
    );
    const warnings: string[] = [];
    const logger = {
      debug: () => undefined,
      warn: (_fields: unknown, message?: string) => void warnings.push(message ?? ''),
    };

    await createApplicationRegistry(
      settings(
        'applications:\n  - file: plugin.yaml\nplugins:\n  - { name: other, generate: { command: [x] } }\n',
      ),
      { logger },
    );

    expect(warnings).toEqual([
      "Application lovely: spec.source.kustomise: not a field of Argo CD's Application (did you mean spec.source.kustomize?); ignored",
      'Application lovely: spec.source.plugin.name argocd-lovely-plugin is not declared under plugins: in wavesync.yaml; its syncs will fail',
    ]);
  });
});
