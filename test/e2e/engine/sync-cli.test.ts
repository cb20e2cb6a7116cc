import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin/wavesync.js');
let sim: Simulator;
let kubeconfig: string;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'wavesync-cli-')), 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig, { namespace: 'default' });
});

afterAll(async () => {
  await sim.stop();
});

function wavesync(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [bin, ...args], { cwd: root });
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

/**
 * Sync a ConfigMap `name` annotated `Prune=confirm` as Application `app`, then empty its manifest file: the next
 * sync of that file with `--prune` has exactly that one object to prune. Resolves with the file and the common flags.
 */
async function syncedThenRemoved(name: string, app: string): Promise<{ manifest: string; common: string[] }> {
  const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'wavesync-confirm-')), 'confirm.yaml');
  const object = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, '  annotations:'];
  writeFileSync(
    manifest,
    [...object, '    argocd.argoproj.io/sync-options: Prune=confirm', 'data: { a: "1" }'].join('\n'),
  );
  const common = ['--kubeconfig', kubeconfig, '--tracking-label', app, '-n', 'default'];
  expect((await wavesync('sync', manifest, ...common)).code).toBe(0);
  writeFileSync(manifest, '');
  return { manifest, common };
}

describe('wavesync sync (bin/wavesync.js against the simulator)', () => {
  it('prints progress per wave and hook as text and exits 0 when the operation Succeeded', async () => {
    const { code, stdout } = await wavesync(
      'sync',
      'examples/rails',
      '--kubeconfig',
      kubeconfig,
      '--tracking-label',
      'rails',
    );

    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^Syncing rails at local@[0-9a-f]{8}: 4 steps$/);
    expect(lines).toContain('▶ PreSync wave 2 [step 2/4]: Job/db-migrate (default)');
    expect(lines).toContain('      | == migrating');
    expect(lines.some((l) => l.startsWith('Succeeded: successfully synced'))).toBe(true);
    expect(lines).toContain('App health: Healthy');
  });

  it('prints the final OperationState as JSON and exits 1 when the sync failed (rails without waves)', async () => {
    const { code, stdout } = await wavesync(
      'sync',
      'examples/rails-broken-waves',
      '--kubeconfig',
      kubeconfig,
      '--namespace',
      'broken-cli',
      '--sync-option',
      'CreateNamespace=true',
      '--hook-start-grace',
      '1',
      '--output',
      'json',
    );

    expect(code).toBe(1);
    const result = JSON.parse(stdout) as {
      phase: string;
      message: string;
      resources: {
        kind: string;
        name: string;
        syncPhase: string;
        wave: number;
        startedAt?: string;
        finishedAt?: string;
      }[];
      health: { status: string };
    };
    expect(result.phase).toBe('Failed');
    expect(result.message).toContain('CreateContainerConfigError: configmap "rails-env" not found');
    expect(result.resources.map((r) => `${r.syncPhase}/${r.wave} ${r.kind}/${r.name}`)).toEqual([
      'PreSync/0 Namespace/broken-cli',
      'PreSync/0 Job/db-migrate',
    ]);
    expect(result.resources[1]?.startedAt).toBeDefined();
    expect(result.resources[1]?.finishedAt).toBeDefined();
    expect(result.health.status).toBe('Missing');
  });

  it('reports a bad kubeconfig on stderr with exit code 2 (input error)', async () => {
    const { code, stderr } = await wavesync(
      'sync',
      'examples/rails',
      '--kubeconfig',
      '/nonexistent/kubeconfig',
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: kubeconfig not found \(\/nonexistent\/kubeconfig\): check the path/);
  });

  it('--confirm-prune lets a wave prune its Prune=confirm resources', async () => {
    const { manifest, common } = await syncedThenRemoved('keep-until-confirmed', 'confirm-cli');

    const { code, stdout } = await wavesync('sync', manifest, ...common, '--prune', '--confirm-prune');

    expect(code).toBe(0);
    expect(stdout).toContain('✓ ConfigMap/keep-until-confirmed (default): Pruned — pruned');
    expect(stdout).not.toContain('waits for pruning confirmation');
  });

  it('--timeout ends a wave waiting for pruning confirmation with exit 1, naming what it waited for', async () => {
    const { manifest, common } = await syncedThenRemoved('wait-for-me', 'timeout-cli');

    const { code, stdout } = await wavesync('sync', manifest, ...common, '--prune', '--timeout', '2');

    expect(code).toBe(1);
    expect(stdout).toContain(
      'waits for pruning confirmation (Prune=confirm): ConfigMap/wait-for-me (default)',
    );
    expect(stdout).toMatch(
      /Operation terminated: timed out after 2s waiting for pruning confirmation of \/ConfigMap\/wait-for-me/,
    );
    expect((await wavesync('sync', manifest, ...common, '--timeout', 'soon')).code).toBe(2);
  });

  it('survives its output going away (| head -2): stops printing and finishes the sync, every hook created', async () => {
    // `wavesync sync … | head -2`: the reader closes the pipe after two lines; before, EPIPE killed the CLI
    // halfway and the later hooks were never created.
    const proc = spawn(
      process.execPath,
      [
        bin,
        'sync',
        'examples/rails',
        '--kubeconfig',
        kubeconfig,
        '--tracking-label',
        'rails-epipe',
        '-n',
        'epipe',
      ],
      { cwd: root },
    );
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'epipe' } });
    let seen = '';
    let stderr = '';
    proc.stderr.on('data', (d) => {
      stderr += d;
    });
    proc.stdout.on('data', (d) => {
      seen += d;
      if (seen.split('\n').length > 2) proc.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));

    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
    // The PostSync smoke test (deleted once it succeeded) was created, and the App came out Healthy.
    const writes = sim.requests.filter((r) => r.method !== 'GET').map((r) => r.path);
    expect(writes.some((p) => p.includes('/namespaces/epipe/jobs/db-migrate'))).toBe(true);
    expect(writes.some((p) => p.includes('/namespaces/epipe/jobs/smoke-test'))).toBe(true);
  });

  describe('waiting for app health after the operation (argocd app sync)', () => {
    /** A Deployment whose image cannot be pulled: the operation Succeeds (one step), the app never gets Healthy. */
    function neverHealthy(): string {
      const manifest = path.join(mkdtempSync(path.join(tmpdir(), 'wavesync-health-')), 'web.yaml');
      writeFileSync(
        manifest,
        [
          'apiVersion: apps/v1',
          'kind: Deployment',
          'metadata: { name: never-healthy }',
          'spec:',
          '  replicas: 1',
          '  selector: { matchLabels: { app: never-healthy } }',
          '  template:',
          '    metadata: { labels: { app: never-healthy } }',
          '    spec:',
          '      containers: [{ name: web, image: "registry.example/app:does-not-exist" }]',
        ].join('\n'),
      );
      return manifest;
    }

    it('--no-wait-health prints the JSON OperationState as soon as the operation completes, exit 0', async () => {
      const { code, stdout } = await wavesync(
        'sync',
        neverHealthy(),
        '--kubeconfig',
        kubeconfig,
        '--tracking-label',
        'no-wait',
        '--no-wait-health',
        '-o',
        'json',
      );

      expect(code).toBe(0);
      const result = JSON.parse(stdout) as { phase: string; health?: unknown };
      expect(result.phase).toBe('Succeeded');
      expect(result.health).toBeUndefined();
    });

    it('--health-timeout bounds the wait: the app still Progressing after it is exit 1, saying why', async () => {
      const { code, stdout, stderr } = await wavesync(
        'sync',
        neverHealthy(),
        '--kubeconfig',
        kubeconfig,
        '--tracking-label',
        'health-timeout',
        '--health-timeout',
        '2',
      );

      expect(code).toBe(1);
      expect(stdout).toMatch(/^Succeeded: successfully synced/m);
      expect(stdout).toMatch(/^App health: Progressing — Deployment\/never-healthy/m);
      expect(stderr).toMatch(
        /^error: the operation Succeeded but the app is Progressing: Deployment\/never-healthy/,
      );
    });
  });

  it('--dry-run prints the plan warning about a Pod that reads an object this sync creates later', async () => {
    // Its own namespace: examples/rails (first test) made rails-env live in default, and a live object is no warning.
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dry-warn' } });
    const { code, stdout } = await wavesync(
      'sync',
      'examples/rails-broken-waves',
      '--kubeconfig',
      kubeconfig,
      '--tracking-label',
      'dry-warn',
      '-n',
      'dry-warn',
      '--dry-run',
    );

    expect(code).toBe(0);
    expect(stdout.split('\n')).toContain(
      '  ⚠ PreSync Job/db-migrate reads ConfigMap/rails-env, which this sync creates later (Sync wave 0): make it a PreSync hook in an earlier wave',
    );
  });
});

describe('wavesync sync <path> with health scripts', () => {
  it("judges a custom resource by wavesync.yaml's health: script (--config) and fails the wave with its message", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wavesync-scripted-'));
    const crd = [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata: { name: gadgets.cli.example.com }',
      'spec:',
      '  group: cli.example.com',
      '  scope: Namespaced',
      '  names: { plural: gadgets, singular: gadget, kind: Gadget }',
      '  versions:',
      '    - name: v1',
      '      served: true',
      '      storage: true',
      '      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }',
    ].join('\n');
    const gadget = [
      'apiVersion: cli.example.com/v1',
      'kind: Gadget',
      'metadata: { name: g1 }',
      'spec: { size: 3 }',
    ].join('\n');
    writeFileSync(path.join(dir, 'objects.yaml'), `${crd}\n---\n${gadget}\n`);
    const config = path.join(mkdtempSync(path.join(tmpdir(), 'wavesync-config-')), 'wavesync.yaml');
    writeFileSync(
      config,
      [
        'health:',
        '  argocdCm:',
        '    resource.customizations.health.cli.example.com_Gadget: |',
        '      return { status = "Degraded", message = "gadget of size " .. obj.spec.size .. " is not ready" }',
      ].join('\n'),
    );
    const common = ['--kubeconfig', kubeconfig, '--tracking-label', 'gadgets', '-n', 'default'];
    const withScript = await wavesync('sync', dir, ...common, '--config', config);
    expect(withScript.stdout).toContain('gadget of size 3 is not ready');
    expect(withScript.code).toBe(1);
    const without = await wavesync('sync', dir, ...common);
    expect(without.stdout).not.toContain('is not ready');
    expect(without.code).toBe(0);
  });
});
