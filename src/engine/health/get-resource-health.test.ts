import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sharedFixturesDir } from '../../../test/support/shared-fixtures.js';
import type { KubeObject } from '../../domain/index.js';
import { getResourceHealth } from './get-resource-health.js';

const healthDir = sharedFixturesDir('health');

interface Expectation {
  file: string;
  status: string | undefined;
  message: string | undefined;
}

/** Rows of the "Main folder" table of EXPECTED.md: file, expected status, and the message the code returns. */
function readExpectations(): Expectation[] {
  const text = readFileSync(path.join(healthDir, 'EXPECTED.md'), 'utf8');
  const main = text.slice(
    text.indexOf('## Main folder'),
    text.indexOf('## Checked by the test without a file'),
  );
  return main
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| /, '').trim());
      const file = cells[0]?.replaceAll('`', '') ?? '';
      const status = cells[2]?.startsWith('none') ? undefined : cells[2];
      const derived = cells[5] ?? '';
      const message =
        derived === '—' ? undefined : derived === '(empty)' ? '' : derived.replace(/^`|`$/g, '');
      return { file, status, message };
    });
}

function load(file: string): KubeObject {
  const obj = parse(readFileSync(path.join(healthDir, file), 'utf8'), { uniqueKeys: false }) as KubeObject;
  return { ...obj, metadata: obj.metadata ?? {} };
}

const expectations = readExpectations();

describe('getResourceHealth on the gitops-engine health fixtures', () => {
  it('reads all 50 expectations of EXPECTED.md', async () => {
    expect(expectations).toHaveLength(50);
  });

  it.each(expectations)('$file → $status', async ({ file, status, message }) => {
    const health = await getResourceHealth(load(file));
    if (status === undefined) {
      expect(health).toBeUndefined();
      return;
    }
    expect(health?.status).toBe(status);
    if (message !== undefined) expect(health?.message).toBe(message);
  });

  it('keeps the asserted message of a suspended Job', async () => {
    expect(await getResourceHealth(load('job-suspended.yaml'))).toEqual({
      status: 'Suspended',
      message: 'Job suspended',
    });
  });
});

describe('getResourceHealth rules without a fixture', () => {
  it('judges a child Application by its status.health only when the customization is enabled (spec §6.4)', async () => {
    const app = load('application-degraded.yaml');
    expect(await getResourceHealth(app)).toBeUndefined();
    expect((await getResourceHealth(app, { applicationHealth: true }))?.status).toBe('Degraded');
    const fresh: KubeObject = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'x' },
    };
    expect((await getResourceHealth(fresh, { applicationHealth: true }))?.status).toBe('Progressing');
  });

  it('does not report Pending deletion for a hook that still holds the hook finalizer', async () => {
    const pod = load('pod-deletion.yaml');
    pod.metadata.finalizers = ['argocd.argoproj.io/hook-finalizer'];
    expect((await getResourceHealth(pod))?.message).not.toBe('Pending deletion');
  });

  it('waits for a new CRD to be Established, and is Healthy after', async () => {
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
    };
    expect((await getResourceHealth(crd))?.status).toBe('Progressing');
    crd.status = { conditions: [{ type: 'Established', status: 'True' }] };
    expect(await getResourceHealth(crd)).toEqual({ status: 'Healthy', message: 'CRD is healthy' });
    crd.status = { conditions: [{ type: 'NamesAccepted', status: 'False', message: 'taken' }] };
    expect((await getResourceHealth(crd))?.status).toBe('Degraded');
  });

  it('reports a Deployment rollout in gitops-engine words', async () => {
    const deployment: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', generation: 2 },
      spec: { replicas: 3 },
      status: { observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 1 },
    };
    expect(await getResourceHealth(deployment)).toEqual({
      status: 'Progressing',
      message: 'Waiting for rollout to finish: 1 of 3 updated replicas are available...',
    });
    deployment.metadata.generation = 3;
    expect((await getResourceHealth(deployment))?.message).toMatch(
      /observed deployment generation less than desired/,
    );
  });

  it('reads a failed ReplicaSet and a lost PVC as Degraded', async () => {
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs' },
      spec: { replicas: 1 },
      status: { conditions: [{ type: 'ReplicaFailure', status: 'True', message: 'quota exceeded' }] },
    };
    expect(await getResourceHealth(rs)).toEqual({ status: 'Degraded', message: 'quota exceeded' });
    const pvc: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {},
      status: { phase: 'Lost' },
    };
    expect((await getResourceHealth(pvc))?.status).toBe('Degraded');
  });

  it('has no health for kinds without a check, and none for a same-named kind of another group', async () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    expect(await getResourceHealth(cm)).toBeUndefined();
    const knative: KubeObject = { apiVersion: 'serving.knative.dev/v1', kind: 'Service', metadata: {} };
    expect(await getResourceHealth(knative)).toBeUndefined();
  });
});
