/**
 * `wavesync appset` as people run it (bin/wavesync.js in its own process): the field warnings of the generated
 * Applications go to stderr, each naming the generated Application and its ApplicationSet, while stdout stays a
 * document a pipe can parse (YAML or JSON).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin/wavesync.js');
let dir: string;
let file: string;

function wavesync(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // No wavesync.yaml of the caller's: the ApplicationSet needs no clusters or git.
    const env = { ...process.env, WAVESYNC_CONFIG: '' };
    const proc = spawn(process.execPath, [bin, ...args], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => {
      stdout += d;
    });
    proc.stderr.on('data', (d) => {
      stderr += d;
    });
    proc.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-appset-cli-'));
  file = path.join(dir, 'guestbook.yaml');
  await writeFile(
    file,
    [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: ApplicationSet',
      'metadata: { name: guestbook }',
      'spec:',
      '  goTemplate: true',
      '  generators: [{ list: { elements: [{ env: dev }, { env: prod }] } }]',
      '  template:',
      "    metadata: { name: 'guestbook-{{.env}}' }",
      '    spec:',
      '      project: default',
      '      source: { repoURL: https://example.com/guestbook.git, path: guestbook }',
      "      destination: { server: https://kubernetes.default.svc, namespace: '{{.env}}' }",
      '      syncPolicy: { syncOptions: [ServerSideApply=yes] }',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('wavesync appset (bin/wavesync.js)', () => {
  it('warns on stderr per generated Application; stdout parses as YAML, and as JSON with -o json', async () => {
    const warnings = ['guestbook-dev', 'guestbook-prod'].map(
      (app) =>
        `warning: Application ${app} (ApplicationSet guestbook): spec.syncPolicy.syncOptions: unknown sync option "ServerSideApply=yes" (valid: ServerSideApply=true, ServerSideApply=false); Argo CD ignores it (${file}:1)`,
    );

    const yamlRun = await wavesync('appset', file);
    expect(yamlRun.code).toBe(0);
    expect(yamlRun.stderr.trimEnd().split('\n')).toEqual(warnings);
    const docs = parseAllDocuments(yamlRun.stdout);
    expect(docs.flatMap((d) => d.errors)).toEqual([]);
    expect(docs.map((d) => d.toJS().metadata.name)).toEqual(['guestbook-dev', 'guestbook-prod']);

    const jsonRun = await wavesync('appset', file, '-o', 'json');
    expect(jsonRun.code).toBe(0);
    expect(jsonRun.stderr.trimEnd().split('\n')).toEqual(warnings);
    const apps = JSON.parse(jsonRun.stdout) as {
      metadata: { name: string };
      spec: { syncPolicy: unknown };
    }[];
    expect(apps.map((a) => a.metadata.name)).toEqual(['guestbook-dev', 'guestbook-prod']);
    // Printed as generated: the warning does not change what Argo CD would create.
    expect(apps[0]!.spec.syncPolicy).toEqual({ syncOptions: ['ServerSideApply=yes'] });
  }, 60_000);
});
