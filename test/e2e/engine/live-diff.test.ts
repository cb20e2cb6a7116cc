/**
 * The diff engine against the simulator through the real client-node adapter: right after a sync nothing shows
 * (server defaults and managed metadata are no noise), a live edit by another field manager shows as a changed
 * field, a Secret change shows masked, and an ignoreDifferences path is neither shown nor reverted by a sync with
 * RespectIgnoreDifferences=true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRevisionOf } from '../../../src/applications/manifests/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import {
  computeApplicationDiff,
  parseIgnoreDifferences,
  type SourcedObject,
} from '../../../src/engine/index.js';
import { type Harness, live, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

const source = { file: 'app.yaml', line: 1 };
const deployment = (replicas: number, image: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
  },
});
const secret = (password: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db' },
  stringData: { DB_PASSWORD: password, DB_USER: 'app' },
});
const hook: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'pre', annotations: { 'argocd.argoproj.io/hook': 'PreSync' } },
  data: { a: '1' },
};
const sourced = (...objects: KubeObject[]): SourcedObject[] => objects.map((object) => ({ object, source }));

/** A `kubectl edit`-like merge patch by another field manager. */
async function editLive(path: string, patch: unknown): Promise<void> {
  const res = await fetch(`${h.sim.url}${path}?fieldManager=kubectl-edit`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json', authorization: 'Bearer t' },
    body: JSON.stringify(patch),
  });
  expect(res.status).toBe(200);
}

function replicasOf(namespace: string): unknown {
  return (live(h, 'apps/v1', 'Deployment', 'web', namespace)?.spec as { replicas?: number } | undefined)
    ?.replicas;
}

function diffOf(
  namespace: string,
  targets: SourcedObject[],
  ignoreDifferences: unknown = [],
  syncOptions: string[] = [],
) {
  return computeApplicationDiff({
    cluster: h.cluster,
    application: namespace,
    targets,
    namespace,
    revision: contentRevisionOf(targets),
    operation: { prune: true, dryRun: true, syncOptions },
    ignoreDifferences: parseIgnoreDifferences(ignoreDifferences).rules,
  });
}

describe('computeApplicationDiff against the simulator', () => {
  it('refuses, as the sync does, a custom resource whose kind is not served and not defined by this sync', async () => {
    const namespace = h.freshNamespace('diff-unserved');
    const widget = (annotations?: Record<string, string>): KubeObject => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', ...(annotations ? { annotations } : {}) },
    });
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };

    await expect(diffOf(namespace, sourced(cm, widget()))).rejects.toThrow(
      'one or more synchronization tasks are not valid: the server could not find the requested resource: ' +
        'example.com/v1 Widget is not served (is its CRD installed?)',
    );
    const skipped = await diffOf(
      namespace,
      sourced(cm, widget({ 'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true' })),
    );
    expect(skipped.resources.map((r) => [r.kind, r.action])).toEqual([
      ['ConfigMap', 'create'],
      ['Widget', 'create'],
    ]);
  });

  it('shows nothing after a sync, then a live edit as a changed field and a Secret change masked', async () => {
    const namespace = h.freshNamespace('diff');
    const targets = sourced(deployment(2, 'web:1'), secret('s3cr3t-one'), hook);
    expect((await syncObjects(h, targets, { namespace })).state.phase).toBe('Succeeded');

    const clean = await diffOf(namespace, targets);
    expect(clean.resources.map((r) => [r.kind, r.action, r.diff])).toEqual([
      ['Secret', 'unchanged', ''],
      ['Deployment', 'unchanged', ''],
    ]);
    expect(clean.hooks).toEqual([{ phase: 'PreSync', kind: 'ConfigMap', namespace, name: 'pre' }]);

    await editLive(`/apis/apps/v1/namespaces/${namespace}/deployments/web`, {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'web:hotfix' }] } } },
    });
    const changedTargets = sourced(deployment(2, 'web:1'), secret('s3cr3t-two'), hook);
    const diff = await diffOf(namespace, changedTargets);

    const web = diff.resources.find((r) => r.kind === 'Deployment')!;
    expect(web.action).toBe('change');
    expect(web.fields).toEqual([
      { path: 'spec.template.spec.containers[0].image', live: 'web:hotfix', desired: 'web:1' },
    ]);
    expect(web.diff).toMatch(/^- +- image: web:hotfix\n\+ +- image: web:1$/m);
    const db = diff.resources.find((r) => r.kind === 'Secret')!;
    expect(db).toMatchObject({ action: 'change', secretKeysChanged: ['DB_PASSWORD'] });
    const everything = JSON.stringify(diff);
    for (const value of ['s3cr3t-one', 's3cr3t-two']) {
      expect(everything).not.toContain(value);
      expect(everything).not.toContain(Buffer.from(value).toString('base64'));
    }
    expect(diff.counts).toEqual({ create: 0, change: 2, unchanged: 0, prune: 0, pruneSkipped: 0, hooks: 1 });
    expect(diff.fingerprint).not.toBe(clean.fingerprint);
  });

  it('leaves an ignoreDifferences path out of the diff and does not revert it with RespectIgnoreDifferences=true', async () => {
    const namespace = h.freshNamespace('ignore');
    const targets = sourced(deployment(2, 'web:1'));
    const ignore = [{ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] }];
    expect((await syncObjects(h, targets, { namespace })).state.phase).toBe('Succeeded');
    await editLive(`/apis/apps/v1/namespaces/${namespace}/deployments/web`, { spec: { replicas: 5 } });

    const shown = await diffOf(namespace, targets);
    expect(shown.resources[0]!.fields).toEqual([{ path: 'spec.replicas', live: '5', desired: '2' }]);
    const respected = ['RespectIgnoreDifferences=true'];
    const hidden = await diffOf(namespace, targets, ignore, respected);
    expect(hidden.resources[0]).toMatchObject({ action: 'unchanged', diff: '' });

    const run = await syncObjects(h, targets, {
      namespace,
      operation: { syncOptions: respected },
      ignoreDifferences: parseIgnoreDifferences(ignore).rules,
    });
    expect(run.state.phase).toBe('Succeeded');
    expect(replicasOf(namespace)).toBe(5);

    await syncObjects(h, targets, { namespace });
    expect(replicasOf(namespace)).toBe(2);
  });

  it('shows a resource that is not live yet as create and a tracked one no longer in the manifests as prune', async () => {
    const namespace = h.freshNamespace('create');
    const extra: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'old' },
      data: { x: '1' },
    };
    expect((await syncObjects(h, sourced(extra), { namespace })).state.phase).toBe('Succeeded');

    const diff = await diffOf(namespace, sourced(deployment(1, 'web:1')));
    expect(diff.resources.map((r) => [r.kind, r.name, r.action])).toEqual([
      ['ConfigMap', 'old', 'prune'],
      ['Deployment', 'web', 'create'],
    ]);
    expect(diff.resources[1]!.diff).toContain('+  replicas: 1');
  });

  it('with CreateNamespace=true: a new namespace is a create without dry-run warnings, and after the sync nothing shows', async () => {
    const namespace = `created-${Date.now()}`;
    const targets = sourced(deployment(1, 'web:1'));
    const options = ['CreateNamespace=true'];

    const before = await diffOf(namespace, targets, [], options);
    expect(before.resources.map((r) => [r.kind, r.action, r.note])).toEqual([
      ['Namespace', 'create', undefined],
      ['Deployment', 'create', undefined],
    ]);
    expect(
      (await syncObjects(h, targets, { namespace, operation: { syncOptions: options } })).state.phase,
    ).toBe('Succeeded');
    const after = await diffOf(namespace, targets, [], options);
    expect(after.resources.map((r) => [r.kind, r.action])).toEqual([['Deployment', 'unchanged']]);
    expect(after.warnings).toEqual([]);
  });
});
