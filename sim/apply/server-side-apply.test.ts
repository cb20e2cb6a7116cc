import { type KubernetesObject, PatchStrategy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { statusOf } from '../testing/kube-clients.js';
import { deploymentManifest } from '../testing/manifests.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 20 });

const apply = (obj: object, manager: string, force = false): Promise<KubernetesObject> =>
  cluster.api.objects.patch(
    obj as KubernetesObject,
    undefined,
    undefined,
    manager,
    force,
    PatchStrategy.ServerSideApply,
  );

function deployment(name: string, image: string, spec: Record<string, unknown> = {}) {
  return deploymentManifest(name, { image, spec });
}

describe('server-side apply', () => {
  it('creates on first apply and records an Apply entry in managedFields (fieldsV1)', async () => {
    const created = await apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'ssa-1', namespace: 'default', labels: { app: 'x' } },
        data: { a: '1', b: '2' },
      },
      'wavesync',
    );
    expect(created.metadata?.managedFields).toHaveLength(1);
    const [entry] = created.metadata?.managedFields ?? [];
    expect(entry).toMatchObject({
      manager: 'wavesync',
      operation: 'Apply',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
    });
    expect(entry?.fieldsV1).toEqual({
      'f:data': { 'f:a': {}, 'f:b': {} },
      'f:metadata': { 'f:labels': { 'f:app': {} } },
    });
  });

  it('removes fields the manager stops applying, keeps fields others own', async () => {
    await apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'ssa-2', namespace: 'default' },
        data: { a: '1', b: '2' },
      },
      'one',
    );
    await apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'ssa-2', namespace: 'default' },
        data: { c: '3' },
      },
      'two',
    );
    const after = await apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'ssa-2', namespace: 'default' },
        data: { a: '1' },
      },
      'one',
    );
    expect((after as { data?: Record<string, string> }).data).toEqual({ a: '1', c: '3' });
  });

  it('keeps the keys now applied into a map the manager applied empty before, and drops the keys it stopped applying', async () => {
    const configMap = (metadata: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa-empty-map', namespace: 'default', ...metadata },
    });
    await apply(configMap({ annotations: {}, labels: { old: 'x' } }), 'one');
    const after = await apply(configMap({ annotations: { now: 'y' } }), 'one');
    expect(after.metadata?.annotations).toEqual({ now: 'y' });
    expect(after.metadata?.labels ?? {}).toEqual({});
  });

  it('answers 409 with the conflicting manager and field unless forced, then moves ownership', async () => {
    await apply(deployment('ssa-web', 'nginx:1'), 'wavesync');
    let status: ReturnType<typeof statusOf> = {};
    let code: number | undefined;
    try {
      await apply(deployment('ssa-web', 'nginx:2'), 'other-tool');
    } catch (error) {
      status = statusOf(error);
      code = (error as { code: number }).code;
    }
    expect(code).toBe(409);
    expect(status).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      code: 409,
      message:
        'Apply failed with 1 conflict: conflict with "wavesync" using apps/v1: .spec.template.spec.containers[name="web"].image',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "wavesync" using apps/v1',
            field: '.spec.template.spec.containers[name="web"].image',
          },
        ],
      },
    });
    const forced = await apply(deployment('ssa-web', 'nginx:2'), 'other-tool', true);
    expect((forced as ReturnType<typeof deployment>).spec.template.spec.containers[0]?.image).toBe('nginx:2');
    const owners = (forced.metadata?.managedFields ?? [])
      .map((m) => m.manager)
      .filter((m) => m !== 'kube-controller-manager');
    expect(owners).toEqual(['wavesync', 'other-tool']);
    const again = await apply(deployment('ssa-web', 'nginx:3'), 'wavesync', true);
    expect((again as ReturnType<typeof deployment>).spec.template.spec.containers[0]?.image).toBe('nginx:3');
  });

  it('does not conflict when another manager sets the same value (shared ownership)', async () => {
    await apply(deployment('ssa-shared', 'nginx:1'), 'a');
    const shared = await apply(deployment('ssa-shared', 'nginx:1'), 'b');
    expect(
      (shared.metadata?.managedFields ?? [])
        .map((m) => m.manager)
        .filter((m) => m !== 'kube-controller-manager'),
    ).toEqual(['a', 'b']);
  });

  it('conflicts with an Update manager (kubectl edit style) and keeps controller-set status', async () => {
    await apply(deployment('ssa-upd', 'nginx:1'), 'wavesync');
    const res = await fetch(
      `${cluster.sim.url}/apis/apps/v1/namespaces/default/deployments/ssa-upd?fieldManager=kubectl-edit`,
      {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { replicas: 0, minReadySeconds: 5 } }),
      },
    );
    expect(res.status).toBe(200);
    await expect(
      apply(deployment('ssa-upd', 'nginx:1', { minReadySeconds: 7 }), 'wavesync'),
    ).rejects.toMatchObject({ code: 409 });
  });

  it('requires a fieldManager', async () => {
    const res = await fetch(`${cluster.sim.url}/api/v1/namespaces/default/configmaps/nofm`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nofm\n',
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toContain(
      'fieldManager: Required value: is required for apply patch',
    );
  });

  it('accepts YAML bodies as kubectl sends them', async () => {
    const res = await fetch(
      `${cluster.sim.url}/api/v1/namespaces/default/configmaps/yaml?fieldManager=kubectl`,
      {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/apply-patch+yaml' },
        body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml\ndata:\n  k: v\n',
      },
    );
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ k: 'v' });
  });

  describe('list-map keys as the API server declares them (listType=map, listMapKey)', () => {
    type Container = { name: string; image: string; ports?: { containerPort: number; protocol?: string }[] };
    const withContainers = (name: string, containers: Container[]) => {
      const d = deployment(name, 'nginx:1');
      d.spec.template.spec.containers = containers;
      return d;
    };
    const containersOf = (o: KubernetesObject) =>
      (o as ReturnType<typeof deployment>).spec.template.spec.containers as Container[];

    it('the same manager renaming a container replaces it (containers merge by name)', async () => {
      await apply(withContainers('ssa-rename', [{ name: 'web', image: 'nginx:1' }]), 'wavesync');
      const renamed = await apply(
        withContainers('ssa-rename', [{ name: 'app', image: 'nginx:1' }]),
        'wavesync',
      );
      expect(containersOf(renamed).map((c) => c.name)).toEqual(['app']);
      const [entry] = (renamed.metadata?.managedFields ?? []).filter((m) => m.manager === 'wavesync');
      type Tree = { [field: string]: Tree };
      const fields = (entry?.fieldsV1 ?? {}) as Tree;
      const containers = fields['f:spec']?.['f:template']?.['f:spec']?.['f:containers'];
      expect(Object.keys(containers ?? {})).toEqual(['k:{"name":"app"}']);
    });

    it('container ports are keyed by containerPort and protocol (default TCP): 53/TCP and 53/UDP are two items', async () => {
      const ports = [{ containerPort: 53 }, { containerPort: 53, protocol: 'UDP' }];
      const first = await apply(
        withContainers('ssa-ports', [{ name: 'dns', image: 'coredns', ports }]),
        'wavesync',
      );
      expect(containersOf(first)[0]?.ports).toEqual([
        { containerPort: 53, protocol: 'TCP' },
        { containerPort: 53, protocol: 'UDP' },
      ]);
      // Applying the same again (protocol still left out) changes nothing and conflicts with nobody.
      const again = await apply(
        withContainers('ssa-ports', [{ name: 'dns', image: 'coredns', ports }]),
        'other',
      );
      expect(containersOf(again)[0]?.ports).toHaveLength(2);
      const [entry] = (again.metadata?.managedFields ?? []).filter((m) => m.manager === 'wavesync');
      expect(JSON.stringify(entry?.fieldsV1)).toContain(
        '"k:{\\"containerPort\\":53,\\"protocol\\":\\"UDP\\"}"',
      );
      // Dropping the UDP port: kept while 'other' still applies it, removed (alone) once nobody does.
      const tcp = withContainers('ssa-ports', [
        { name: 'dns', image: 'coredns', ports: [{ containerPort: 53 }] },
      ]);
      expect(containersOf(await apply(tcp, 'wavesync'))[0]?.ports).toHaveLength(2);
      const tcpOnly = await apply(tcp, 'other');
      expect(containersOf(tcpOnly)[0]?.ports).toEqual([{ containerPort: 53, protocol: 'TCP' }]);
    });
  });
});
