import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../domain/index.js';
import { parseManifests } from './parse-manifests.js';

function errorOf(text: string): ManifestError {
  try {
    parseManifests(text, 'm.yaml');
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error('expected a ManifestError');
}

describe('src/applications/manifests/parse-manifests', () => {
  it('reads every document with the line its object starts on, skipping empty and comment-only ones', () => {
    const text = [
      '# leading comment',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: a}',
      '---',
      '# only a comment',
      '---',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: b',
    ].join('\n');

    const { objects } = parseManifests(text, 'm.yaml');

    expect(objects.map((o) => [o.object.kind, o.object.metadata.name, o.source])).toEqual([
      ['ConfigMap', 'a', { file: 'm.yaml', line: 3 }],
      ['Deployment', 'b', { file: 'm.yaml', line: 10 }],
    ]);
  });

  it('expands List objects into their items, each with its own line', () => {
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  - apiVersion: v1',
      '    kind: Service',
      '    metadata: {name: s}',
      '  - apiVersion: v1',
      '    kind: ConfigMap',
      '    metadata: {name: c}',
    ].join('\n');

    const { objects } = parseManifests(text, 'm.yaml');

    expect(objects.map((o) => `${o.object.kind}/${o.object.metadata.name}@${o.source.line}`)).toEqual([
      'Service/s@4',
      'ConfigMap/c@7',
    ]);
  });

  it('expands typed lists (ConfigMapList) too', () => {
    const text =
      'apiVersion: v1\nkind: ConfigMapList\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n';

    expect(parseManifests(text, 'm.yaml').objects.map((o) => o.object.metadata.name)).toEqual(['x']);
  });

  it('reads JSON', () => {
    const text = '{\n\t"apiVersion": "v1",\n\t"kind": "Pod",\n\t"metadata": {"name": "p"}\n}\n';

    expect(parseManifests(text, 'p.json').objects[0]?.object.metadata.name).toBe('p');
  });

  it('keeps annotation values that look like numbers as strings when quoted', () => {
    const text =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    argocd.argoproj.io/sync-wave: "-1"\n';

    expect(parseManifests(text, 'm.yaml').objects[0]?.object.metadata.annotations).toEqual({
      'argocd.argoproj.io/sync-wave': '-1',
    });
  });

  it('reads plain scalars as go-yaml v2 does for kubectl and Argo CD (YAML 1.1), not as YAML 1.2', () => {
    const text = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: p',
      '  annotations: {when: 2024-01-01, ports: 8080:80, quoted: "yes", y: "key y is a boolean"}',
      'spec:',
      '  enableServiceLinks: no',
      '  hostNetwork: off',
      '  volumes:',
      '  - name: s',
      '    secret: {secretName: s, defaultMode: 0644}',
      '  - name: c',
      '    configMap: {name: c, defaultMode: 0o400, items: [{key: k, path: k, mode: 0X1FF}]}',
      '  containers:',
      '  - name: c',
      '    image: busybox',
      '    env: [{name: A, value: yes}, {name: B, value: 1_000}, {name: C, value: 0b101}]',
    ].join('\n');
    expect(parseManifests(text, 'pod.yaml').objects[0]!.object).toMatchObject({
      metadata: {
        annotations: {
          when: '2024-01-01', // a timestamp stays a string (go-yaml v2 into interface{})
          ports: '8080:80', // no sexagesimal numbers in go-yaml v2
          quoted: 'yes',
          true: 'key y is a boolean',
        },
      },
      spec: {
        enableServiceLinks: false,
        hostNetwork: false,
        volumes: [
          { secret: { defaultMode: 0o644 } }, // 420, where YAML 1.2 reads 644
          { configMap: { defaultMode: 0o400, items: [{ mode: 0o777 }] } }, // Go's ParseInt base prefixes
        ],
        // As in Kubernetes, an unquoted yes in an env value is a boolean: the API server refuses it as no string.
        containers: [
          {
            env: [
              { name: 'A', value: true },
              { name: 'B', value: 1000 },
              { name: 'C', value: 5 },
            ],
          },
        ],
      },
    });
  });

  it('merges << keys, as go-yaml v2 does', () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\ndata:\n  base: &b {a: "1"}\n  m: {<<: *b, c: "2"}\n';
    expect(parseManifests(text, 'm.yaml').objects[0]!.object).toMatchObject({
      data: { m: { a: '1', c: '2' } },
    });
  });

  it('rejects a YAML syntax error with its line, even in a later document', () => {
    const error = errorOf('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\nkind: [\n  a\nb: c\n');

    expect(error.file).toBe('m.yaml');
    expect(error.line).toBeGreaterThanOrEqual(5);
    expect(error.message).toMatch(/^m\.yaml:\d+: YAML syntax error: /);
  });

  it('rejects duplicate keys as YAML errors', () => {
    expect(errorOf('apiVersion: v1\nkind: Pod\nkind: Service\nmetadata: {name: p}\n').message).toContain(
      'm.yaml:3: YAML syntax error: Map keys must be unique',
    );
  });

  it.each([
    ['kind: Pod\nmetadata: {name: p}\n', 'm.yaml:1: apiVersion is missing'],
    ['apiVersion: v1\nmetadata: {name: p}\n', 'm.yaml:1: kind is missing'],
    ['apiVersion: v1\nkind: 7\nmetadata: {name: p}\n', 'm.yaml:2: kind must be a non-empty string'],
    ['apiVersion: v1\nkind: Pod\n', 'm.yaml:1: Pod has no metadata (a mapping with a name is required)'],
    ['apiVersion: v1\nkind: Pod\nmetadata:\n  labels: {a: b}\n', 'm.yaml:3: Pod: metadata.name is required'],
    [
      'apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: p-\n',
      'm.yaml:3: Pod: metadata.generateName is only allowed on hooks; metadata.name is required',
    ],
    ['- a\n- b\n', 'm.yaml:1: document is not a Kubernetes object (expected a mapping)'],
    ['just text\n', 'm.yaml:1: document is not a Kubernetes object (expected a mapping)'],
    [
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    argocd.argoproj.io/sync-wave: 1\n',
      'm.yaml:6: metadata.annotations value of argocd.argoproj.io/sync-wave must be a string, got 1 (quote it: "1")',
    ],
    [
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    enabled: true\n',
      'm.yaml:6: metadata.labels value of enabled must be a string, got true (quote it: an unquoted true, false, yes, no, on, off, y or n is a boolean in YAML as kubectl and Argo CD read it)',
    ],
    [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n',
      'm.yaml:4: ConfigMap: metadata.name must be a string, got true (quote it: an unquoted true, false, yes, no, on, off, y or n is a boolean in YAML as kubectl and Argo CD read it)',
    ],
    [
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: 5\n',
      'm.yaml:5: Pod: metadata.namespace must be a string',
    ],
  ])('rejects %j', (text, message) => {
    expect(errorOf(text).message).toBe(message);
  });

  it('accepts generateName on hooks', () => {
    const text = [
      'apiVersion: batch/v1',
      'kind: Job',
      'metadata:',
      '  generateName: migrate-',
      '  annotations: {argocd.argoproj.io/hook: PreSync}',
    ].join('\n');

    expect(parseManifests(text, 'm.yaml').objects[0]?.object.metadata.generateName).toBe('migrate-');
  });

  it('names the List item that is invalid', () => {
    const text =
      'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Pod\n    metadata: {name: ok}\n  - kind: Pod\n';

    expect(errorOf(text).message).toBe('m.yaml:7: apiVersion is missing');
  });

  it('returns nothing for an empty text', () => {
    expect(parseManifests('', 'm.yaml')).toEqual({ objects: [], warnings: [] });
  });
});
