import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../domain/index.js';
import { parseIgnoreDifferences, withIgnoredFromLive } from './ignore-differences.js';
import { diffResource } from './resource-diff.js';
import { unifiedDiff } from './unified-diff.js';

const deployment = (replicas: number, image: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'prod', labels: { app: 'web' }, ...extra },
  spec: {
    replicas,
    template: { spec: { containers: [{ name: 'web', image }] } },
  },
});

const key = { group: 'apps', kind: 'Deployment', namespace: 'prod', name: 'web' };

describe('diffResource', () => {
  it('reports changed fields with live and desired values and a unified YAML diff', () => {
    const diff = diffResource({ ...key, live: deployment(2, 'web:1'), desired: deployment(3, 'web:2') });

    expect(diff.action).toBe('change');
    expect(diff.fields).toEqual([
      { path: 'spec.replicas', live: '2', desired: '3' },
      { path: 'spec.template.spec.containers[0].image', live: 'web:1', desired: 'web:2' },
    ]);
    expect(diff.diff).toContain('--- live Deployment/prod/web\n+++ desired Deployment/prod/web\n');
    expect(diff.diff).toContain('-  replicas: 2\n+  replicas: 3\n');
    expect(diff.diff).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/m);
  });

  it('ignores what the API server owns: managedFields, resourceVersion, generation, status, timestamps, last-applied', () => {
    const live = deployment(2, 'web:1', {
      resourceVersion: '42',
      generation: 7,
      uid: 'u-1',
      creationTimestamp: '2026-01-01T00:00:00Z',
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"spec":{"replicas":9}}' },
    });
    live.status = { readyReplicas: 2 };

    const diff = diffResource({ ...key, live, desired: deployment(2, 'web:1', { resourceVersion: '43' }) });

    expect(diff).toMatchObject({ action: 'unchanged', fields: [], diff: '' });
  });

  it('classifies create and prune', () => {
    expect(diffResource({ ...key, live: undefined, desired: deployment(1, 'a') }).action).toBe('create');
    expect(diffResource({ ...key, live: deployment(1, 'a'), desired: undefined, prune: true }).action).toBe(
      'prune',
    );
    expect(diffResource({ ...key, live: deployment(1, 'a'), desired: undefined }).action).toBe(
      'prune-skipped',
    );
  });

  it('masks Secret values: names the changed keys, never a value (data or stringData, either side)', () => {
    const secret = (data: Record<string, string>, stringData?: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'prod' },
      data,
      ...(stringData ? { stringData } : {}),
    });
    const oldValue = Buffer.from('hunter2-old').toString('base64');
    const sameValue = Buffer.from('same-user').toString('base64');
    const diff = diffResource({
      group: '',
      kind: 'Secret',
      namespace: 'prod',
      name: 'db',
      live: secret({ DB_PASSWORD: oldValue, DB_USER: sameValue, GONE: oldValue }),
      desired: secret({ DB_USER: sameValue }, { DB_PASSWORD: 'hunter2-new', NEW_KEY: 'fresh-value' }),
    });

    expect(diff.action).toBe('change');
    expect(diff.secretKeysChanged).toEqual(['DB_PASSWORD', 'GONE', 'NEW_KEY']);
    const everything = JSON.stringify(diff);
    for (const secretText of ['hunter2', 'same-user', 'fresh-value', oldValue, sameValue]) {
      expect(everything).not.toContain(secretText);
      expect(everything).not.toContain(Buffer.from(secretText).toString('base64'));
    }
    expect(diff.fields.map((f) => f.path)).toEqual(['data.DB_PASSWORD', 'data.GONE', 'data.NEW_KEY']);
    expect(diff.diff).toContain('-  DB_PASSWORD: ++++++++\n+  DB_PASSWORD: +++++++++\n');
  });

  it('leaves ignoreDifferences paths (jsonPointers, jq select, managedFieldsManagers) out of the diff', () => {
    const { rules, warnings } = parseIgnoreDifferences([
      { group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] },
      {
        group: 'apps',
        kind: 'Deployment',
        jqPathExpressions: ['.spec.template.spec.containers[] | select(.name == "sidecar")'],
      },
      { group: 'apps', kind: 'Deployment', managedFieldsManagers: ['hpa-controller'] },
    ]);
    expect(warnings).toEqual([]);
    const live = deployment(5, 'web:1', {
      managedFields: [
        {
          manager: 'hpa-controller',
          operation: 'Update',
          fieldsV1: { 'f:metadata': { 'f:labels': { 'f:tier': {} } } },
        },
      ],
    });
    (live.metadata.labels as Record<string, string>).tier = 'scaled';
    (live.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers.push({
      name: 'sidecar',
      image: 'mesh:1',
    });

    const diff = diffResource({ ...key, live, desired: deployment(2, 'web:1'), rules });

    expect(diff).toMatchObject({ action: 'unchanged', diff: '' });
    const changed = diffResource({ ...key, live, desired: deployment(2, 'web:2'), rules });
    expect(changed.fields.map((f) => f.path)).toEqual(['spec.template.spec.containers[0].image']);
  });
});

describe('parseIgnoreDifferences', () => {
  it('warns about what it cannot honour instead of dropping it silently', () => {
    const { rules, warnings } = parseIgnoreDifferences([
      { kind: 'ConfigMap', jqPathExpressions: ['.data | to_entries'], jsonPointers: ['data'] },
      { group: 'apps' },
      { kind: 'Service', unknownOption: true },
    ]);
    expect(rules).toHaveLength(2);
    expect(warnings).toEqual([
      'spec.ignoreDifferences[0]: jsonPointer data is not a JSON pointer: ignored',
      expect.stringContaining('jqPathExpression .data | to_entries is not supported'),
      'spec.ignoreDifferences[1] has no kind: ignored',
      'spec.ignoreDifferences[2].unknownOption is not supported by wavesync: ignored',
    ]);
  });
});

describe('withIgnoredFromLive (RespectIgnoreDifferences=true)', () => {
  it('sends the live value of an ignored field, so the apply does not revert it', () => {
    const { rules } = parseIgnoreDifferences([
      { group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] },
    ]);
    const target = withIgnoredFromLive(rules, deployment(2, 'web:2'), deployment(7, 'web:1'));
    expect(target.spec).toMatchObject({
      replicas: 7,
      template: { spec: { containers: [{ image: 'web:2' }] } },
    });
  });
});

describe('unifiedDiff', () => {
  it('gives one hunk per change with three lines of context and correct ranges', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 3', 'line three').replace('line 18', 'line eighteen');
    expect(unifiedDiff(before, after, { old: 'a', new: 'b' })).toBe(
      [
        '--- a',
        '+++ b',
        '@@ -1,6 +1,6 @@',
        ' line 1',
        ' line 2',
        '-line 3',
        '+line three',
        ' line 4',
        ' line 5',
        ' line 6',
        '@@ -15,6 +15,6 @@',
        ' line 15',
        ' line 16',
        ' line 17',
        '-line 18',
        '+line eighteen',
        ' line 19',
        ' line 20',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff('a\n', 'a\n', { old: 'a', new: 'b' })).toBe('');
  });
});
