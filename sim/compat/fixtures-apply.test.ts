import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type KubernetesObject, PatchStrategy } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARGO_CD_CRDS, type KubeObject } from '../index.js';
import { FIXTURES, loadFixture } from '../testing/fixtures.js';
import { failureOf } from '../testing/kube-clients.js';
import { useSimulator } from '../testing/use-simulator.js';

/** Plain-YAML manifest files: no Helm chart folders, no kustomization files, no docs. */
function plainYamlFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir);
    if (entries.includes('Chart.yaml')) return;
    for (const entry of entries) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(entry) && entry !== 'kustomization.yaml')
        out.push(path.relative(FIXTURES, full));
    }
  };
  walk(path.join(FIXTURES, root));
  return out.sort();
}

const FILES = [...plainYamlFiles('argo-cd-e2e'), ...plainYamlFiles('argocd-example-apps')];
/** Files a real API server refuses, and why (asserted below). */
const REFUSED: Record<string, { code: number; message: RegExp }> = {
  'argo-cd-e2e/failure-during-sync/failure-during-sync.yaml': {
    code: 422,
    message:
      /^ServiceAccount "failure-during-sync" is invalid: metadata.labels: Invalid value: "has-inva\/id-character!"/,
  },
};

const cluster = useSimulator({ speed: 50 });
beforeAll(async () => {
  await cluster.sim.installCrds(ARGO_CD_CRDS);
  // CRDs go first (through client-node, like everything else), so their instances find them served.
  const crds = FILES.flatMap(loadFixture).filter((d) => d.kind === 'CustomResourceDefinition');
  for (const crd of crds)
    await cluster.api.objects.patch(
      crd as KubernetesObject,
      undefined,
      undefined,
      'wavesync',
      true,
      PatchStrategy.ServerSideApply,
    );
  for (const crd of crds) await cluster.sim.waitForEstablished(crd.metadata.name ?? '');
});

const order = (o: KubeObject) =>
  o.kind === 'Namespace'
    ? 0
    : o.kind === 'CustomResourceDefinition'
      ? 1
      : o.apiVersion.includes('argoproj.io')
        ? 3
        : 2;

async function applyFile(file: string): Promise<KubeObject[]> {
  const namespace = file
    .replace(/\.ya?ml$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/-$/, '');
  await cluster.api.objects.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const docs = loadFixture(file).sort((a, b) => order(a) - order(b));
  const applied: KubeObject[] = [];
  for (const doc of docs) {
    const obj = { ...doc, metadata: { namespace, ...doc.metadata } } as KubernetesObject;
    const result = doc.metadata.name
      ? await cluster.api.objects.patch(
          obj,
          undefined,
          undefined,
          'wavesync',
          true,
          PatchStrategy.ServerSideApply,
        )
      : await cluster.api.objects.create(obj);
    applied.push(result as unknown as KubeObject);
  }
  return applied;
}

describe('applying the fixtures through client-node server-side apply', () => {
  it('finds the plain-YAML fixture files', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(25);
    expect(FILES).toContain('argocd-example-apps/guestbook/guestbook-ui-deployment.yaml');
    expect(FILES.some((f) => f.includes('templates/'))).toBe(false);
  });

  it.each(FILES.filter((f) => !(f in REFUSED) && !f.includes('sync-options-validate-false')))(
    '%s applies and every object is stored',
    async (file) => {
      const applied = await applyFile(file);
      for (const obj of applied) {
        const ref = {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name ?? '',
          namespace: obj.metadata.namespace,
        };
        expect(cluster.sim.get(ref)?.metadata.uid).toBe(obj.metadata.uid);
      }
    },
  );

  it('sync-options-validate-false: client-node itself drops the unknown field before sending (no error)', async () => {
    const [applied] = await applyFile('argo-cd-e2e/sync-options-validate-false/invalid-cm.yaml');
    const stored = cluster.sim.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'invalid-cm',
      namespace: applied?.metadata.namespace,
    });
    expect(stored).toBeDefined();
    expect(stored?.invalidKey).toBeUndefined();
  });

  it.each(Object.entries(REFUSED))('%s is refused as by a real API server', async (file, expected) => {
    const result = await failureOf(applyFile(file));
    expect(result.code).toBe(expected.code);
    expect(result.status.message).toMatch(expected.message);
  });
});
