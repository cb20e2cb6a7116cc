import { type KubernetesObject, PatchStrategy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../testing/fixtures.js';
import { failureOf } from '../testing/kube-clients.js';
import { deploymentManifest } from '../testing/manifests.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 20 });

async function raw(method: string, path: string, contentType: string, body: string) {
  const res = await fetch(`${cluster.sim.url}${path}`, {
    method,
    headers: { 'Content-Type': contentType },
    body,
  });
  return {
    code: res.status,
    warning: res.headers.get('warning'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('validation', () => {
  it('rejects the failure-during-sync fixture (invalid label value) with 422 Invalid', async () => {
    const [account] = loadFixture('argo-cd-e2e/failure-during-sync/failure-during-sync.yaml');
    const result = await failureOf(
      cluster.api.objects.patch(
        account as KubernetesObject,
        undefined,
        undefined,
        'wavesync',
        true,
        PatchStrategy.ServerSideApply,
      ),
    );
    expect(result.code).toBe(422);
    expect(result.status).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `ServiceAccount "failure-during-sync" is invalid: metadata.labels: Invalid value: "has-inva/id-character!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      details: {
        name: 'failure-during-sync',
        kind: 'ServiceAccount',
        causes: [{ reason: 'FieldValueInvalid', field: 'metadata.labels' }],
      },
    });
  });

  it('refuses a Secret whose data is not base64 with 400, as the real API server fails to decode it', async () => {
    const secret = (data: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'b64', namespace: 'default' },
      data,
    });
    const bad = await failureOf(cluster.api.objects.create(secret({ K: 'topsecret99!!notb64' })));
    expect(bad.code).toBe(400);
    expect(bad.status.message).toBe(
      'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 11',
    );
    const unpadded = await failureOf(cluster.api.objects.create(secret({ K: 'YWJj', L: 'YWI' })));
    expect(unpadded.status.message).toContain('illegal base64 data at input byte 0');
    await expect(cluster.api.objects.create(secret({ K: 'YWJj', L: 'YWI=' }))).resolves.toBeDefined();
  });

  it('validates names per kind and workload selectors against template labels', async () => {
    const bad = await failureOf(
      cluster.api.objects.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Not.Valid' } }),
    );
    expect(bad.status.message).toContain(
      'Namespace "Not.Valid" is invalid: metadata.name: Invalid value: "Not.Valid": a lowercase RFC 1123 label',
    );
    const mismatch = await failureOf(
      cluster.api.objects.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'mm', namespace: 'default' },
        spec: {
          selector: { matchLabels: { app: 'a' } },
          template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
        },
      }),
    );
    expect(mismatch.status.message).toBe(
      'Deployment.apps "mm" is invalid: spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`',
    );
  });

  describe('unknown fields (argo-cd-e2e/sync-options-validate-false)', () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: invalid-cm\ninvalidKey: this-fails\n';
    const json = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'invalid-cm' },
      invalidKey: 'this-fails',
    });

    it('fieldValidation=Strict rejects with a strict decoding error (kubectl apply default)', async () => {
      const res = await raw(
        'POST',
        '/api/v1/namespaces/default/configmaps?fieldValidation=Strict',
        'application/json',
        json,
      );
      expect(res.code).toBe(400);
      expect(res.body).toMatchObject({
        reason: 'BadRequest',
        message: 'strict decoding error: unknown field "invalidKey"',
      });
    });

    it('Warn (the server default) drops the field and sends a Warning header; Ignore drops silently', async () => {
      const warn = await raw('POST', '/api/v1/namespaces/default/configmaps', 'application/json', json);
      expect(warn.code).toBe(201);
      expect(warn.warning).toBe('299 - "unknown field \\"invalidKey\\""');
      expect(warn.body.invalidKey).toBeUndefined();
      const ignore = await raw(
        'PUT',
        '/api/v1/namespaces/default/configmaps/invalid-cm?fieldValidation=Ignore',
        'application/json',
        json,
      );
      expect(ignore.code).toBe(200);
      expect(ignore.warning).toBeNull();
    });

    it('server-side apply always rejects unknown fields, as the apiserver does', async () => {
      const res = await raw(
        'PATCH',
        '/api/v1/namespaces/default/configmaps/invalid-cm?fieldManager=x&fieldValidation=Ignore',
        'application/apply-patch+yaml',
        cm,
      );
      expect(res.code).toBe(400);
      expect(res.body.message).toBe(
        'failed to create typed patch object (/v1, Kind=ConfigMap): .invalidKey: field not declared in schema',
      );
    });
  });

  describe('immutable fields', () => {
    it('rejects a changed Job spec.template with 422', async () => {
      const job = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'imm', namespace: 'default' },
        spec: {
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'c', image: 'alpine', command: ['sleep', '100'] }],
            },
          },
        },
      };
      const apply = (o: object) =>
        cluster.api.objects.patch(o, undefined, undefined, 'wavesync', true, PatchStrategy.ServerSideApply);
      await apply(job);
      await apply(job);
      const changed = structuredClone(job);
      changed.spec.template.spec.containers[0]!.image = 'alpine:2';
      const result = await failureOf(apply(changed));
      expect(result.code).toBe(422);
      expect(result.status.message).toMatch(
        /^Job.batch "imm" is invalid: spec.template: Invalid value: .*: field is immutable$/,
      );
    });

    it('rejects changing a workload selector and data of an immutable ConfigMap', async () => {
      const dep = deploymentManifest('sel', { templateLabels: { v: '1' } });
      await cluster.api.objects.create(dep as KubernetesObject);
      const moved = structuredClone(dep);
      moved.spec.selector.matchLabels = { app: 'sel', v: '1' };
      const sel = await failureOf(
        cluster.api.objects.patch(moved, undefined, undefined, 'm', true, PatchStrategy.ServerSideApply),
      );
      expect(sel.status.message).toContain('spec.selector: Invalid value');
      expect(sel.status.message).toContain('field is immutable');
      const cm = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'frozen', namespace: 'default' },
        immutable: true,
        data: { a: '1' },
      };
      await cluster.api.objects.create(cm);
      const edit = await failureOf(cluster.api.objects.replace({ ...cm, data: { a: '2' } }));
      expect(edit.code).toBe(422);
      expect(edit.status.message).toBe(
        'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
      );
    });
  });
});
