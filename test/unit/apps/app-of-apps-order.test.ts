/**
 * App of Apps end to end through the real pieces: the parent Application is rendered (renderApplication), planned
 * (the planner's buildSyncTasks, Argo CD order) and its children listed in that order (childApplicationsOf).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childApplicationsOf } from '../../../src/app-of-apps/app-of-apps.js';
import { createApplicationRegistry } from '../../../src/applications/application-registry.js';
import {
  createApplicationRenderer,
  type RenderedApplication,
} from '../../../src/applications/render/render-application.js';
import type { Application } from '../../../src/domain/application.js';
import { buildSyncTasks } from '../../../src/engine/index.js';
import { loadSettings, parseSettings } from '../../../src/settings/load-settings.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../../examples');

function plan(parent: Application, rendered: RenderedApplication) {
  return buildSyncTasks({
    targets: rendered.targets,
    live: [],
    namespace: parent.destination.namespace ?? '',
    revision: rendered.revision,
    startedAt: '2026-11-29T12:00:00Z',
    operation: { prune: false, dryRun: false, syncOptions: parent.syncPolicy?.syncOptions ?? [] },
  }).tasks;
}

describe('App of Apps ordering', () => {
  it('syncs the plain-YAML argocd-example-apps parent: namespace, CRD, then the children by name', async () => {
    const settings = await loadSettings(path.join(EXAMPLES, 'wavesync.yaml'));
    const registry = await createApplicationRegistry(settings);
    const parent = registry.get('app-of-apps');
    const rendered = await createApplicationRenderer({ baseDir: settings.baseDir }).renderApplication(parent);

    const tasks = plan(parent, rendered);
    const children = childApplicationsOf(tasks, { gateOnChildHealth: true });

    expect(tasks.map((t) => `${t.phase}/${t.wave}/${t.kind}/${t.name}`)).toEqual([
      'PreSync/0/Namespace/argocd',
      'Sync/0/CustomResourceDefinition/applications.argoproj.io',
      'Sync/0/Application/example.guestbook',
      'Sync/0/Application/example.helm-hooks',
      'Sync/0/Application/example.kustomize-guestbook',
      'Sync/0/Application/example.pre-post-sync',
      'Sync/0/Application/example.sync-waves',
    ]);
    expect(children.map((c) => [c.application.name, c.application.source.path, c.gateOnHealth])).toEqual([
      ['example.guestbook', 'manifests/guestbook', true],
      ['example.helm-hooks', 'manifests/helm-hooks', true],
      ['example.kustomize-guestbook', 'manifests/kustomize-guestbook', true],
      ['example.pre-post-sync', 'manifests/pre-post-sync', true],
      ['example.sync-waves', 'manifests/sync-waves', true],
    ]);
  });

  describe('with sync waves on the children (spec Ex 9)', () => {
    let root: string;
    beforeAll(async () => {
      root = await mkdtemp(path.join(tmpdir(), 'wavesync-aoa-'));
      await mkdir(path.join(root, 'parent'));
      const child = (name: string, wave?: string, hook?: string) =>
        [
          'apiVersion: argoproj.io/v1alpha1',
          'kind: Application',
          'metadata:',
          `  name: ${name}`,
          '  namespace: argocd',
          ...(wave || hook ? ['  annotations:'] : []),
          ...(wave ? [`    argocd.argoproj.io/sync-wave: "${wave}"`] : []),
          ...(hook ? [`    argocd.argoproj.io/hook: ${hook}`] : []),
          'spec:',
          `  source: { repoURL: "", path: ${name} }`,
          `  destination: { server: https://kubernetes.default.svc, namespace: ${name} }`,
        ].join('\n');
      await writeFile(
        path.join(root, 'parent/children.yaml'),
        [
          child('apps'),
          child('zz-infra', '-1'),
          child('monitoring', '1'),
          child('a-late', '1'),
          child('smoke', '', 'PostSync'),
        ].join('\n---\n'),
      );
      await writeFile(
        path.join(root, 'parent/config.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\n',
      );
    });
    afterAll(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('orders children by wave then name, after the other kinds of their wave, and skips hook Applications', async () => {
      const settings = parseSettings('', path.join(root, 'wavesync.yaml'));
      const parent: Application = {
        name: 'root',
        namespace: 'argocd',
        project: 'default',
        source: { repoURL: '', path: 'parent' },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' },
        finalizers: [],
        labels: {},
        annotations: {},
        manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'root' } },
        origin: 'test',
      };
      const rendered = await createApplicationRenderer({ baseDir: settings.baseDir }).renderApplication(
        parent,
      );

      const tasks = plan(parent, rendered);
      const children = childApplicationsOf(tasks, { gateOnChildHealth: false });

      expect(tasks.map((t) => `${t.phase}/${t.wave}/${t.kind}/${t.name}`)).toEqual([
        'Sync/-1/Application/zz-infra',
        'Sync/0/ConfigMap/settings',
        'Sync/0/Application/apps',
        'Sync/1/Application/a-late',
        'Sync/1/Application/monitoring',
        'PostSync/0/Application/smoke',
      ]);
      expect(children.map((c) => [c.application.name, c.wave, c.gateOnHealth])).toEqual([
        ['zz-infra', -1, false],
        ['apps', 0, false],
        ['a-late', 1, false],
        ['monitoring', 1, false],
      ]);
    });
  });

  const hasHelm = (() => {
    try {
      execFileSync('sh', ['-c', 'command -v helm'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasHelm)('matches the real apps chart rendered by helm (needs helm on PATH)', async () => {
    const fixtures = sharedFixturesDir('argocd-example-apps');
    const parent: Application = {
      name: 'apps',
      namespace: 'argocd',
      project: 'default',
      source: { repoURL: '', path: 'apps' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' },
      finalizers: [],
      labels: {},
      annotations: {},
      manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'apps' } },
      origin: 'test',
    };
    const rendered = await createApplicationRenderer({ baseDir: fixtures }).renderApplication(parent);
    const children = childApplicationsOf(plan(parent, rendered), { gateOnChildHealth: true });
    const plain = (await loadSettings(path.join(EXAMPLES, 'wavesync.yaml'))).baseDir;
    const plainChildren = new Set(
      (
        await createApplicationRenderer({ baseDir: plain }).renderApplication({
          ...parent,
          source: { repoURL: '', path: 'app-of-apps' },
        })
      ).targets
        .filter((t) => t.object.kind === 'Application')
        .map((t) => t.object.metadata.name),
    );

    expect(children).toHaveLength(14);
    const shared = children.filter((c) => plainChildren.has(c.application.name));
    expect(shared.map((c) => c.application.name)).toEqual([...plainChildren]);
    for (const c of shared) {
      expect(c.application.finalizers).toEqual(['resources-finalizer.argocd.argoproj.io']);
      expect(c.application.syncPolicy).toEqual({
        syncOptions: ['CreateNamespace=true'],
        automated: { prune: true, selfHeal: true },
      });
    }
  });
});
