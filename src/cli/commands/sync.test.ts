import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRun, runCommand } from '../../../test/support/run-command.js';
import { registerSyncCommand } from './sync.js';

/** Runs `wavesync sync ...args` in process through commander, capturing what it writes. */
async function sync(...args: string[]): Promise<CommandRun> {
  return runCommand(registerSyncCommand, ['sync', ...args]);
}

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('wavesync sync against an unreachable cluster', () => {
  let dir: string;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wavesync-sync-cli-'));
    port = await closedPort();
    await writeFile(
      path.join(dir, 'kubeconfig'),
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `  - name: closed\n    cluster:\n      server: http://127.0.0.1:${port}\n      insecure-skip-tls-verify: true`,
        'users:',
        '  - name: closed\n    user:\n      token: t',
        'contexts:',
        '  - name: closed\n    context:\n      cluster: closed\n      user: closed',
        'current-context: closed',
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(dir, 'app.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n',
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** `wavesync sync <dir>/<file> --kubeconfig <the closed port's> -n default ...extra`. */
  const syncToClosedPort = (file: string, ...extra: string[]) =>
    sync(path.join(dir, file), '--kubeconfig', path.join(dir, 'kubeconfig'), '-n', 'default', ...extra);

  it('fails with one line naming the cluster address and the cause in words (connection refused), exit code 1, not a stack trace', async () => {
    const result = await syncToClosedPort('app.yaml');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^error: cannot reach the cluster: .*\(connection refused\).*127\.0\.0\.1:\d+/,
    );
    expect(result.stderr).toContain(`127.0.0.1:${port}`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);

  it('warns about each silent Argo CD fallback with file, line and the closest valid value before syncing', async () => {
    await writeFile(
      path.join(dir, 'typos.yaml'),
      'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n' +
        '    argocd.argoproj.io/hook: PreSynk\n',
    );
    const result = await syncToClosedPort('typos.yaml', '--sync-option', 'CreateNamespce=true');
    const lines = result.stderr.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'warning: unknown sync option "CreateNamespce=true" (did you mean CreateNamespace=true?); Argo CD ignores it (--sync-option)',
      `warning: Job/migrate: argocd.argoproj.io/hook: unknown hook type "PreSynk" (did you mean PreSync?); Argo CD ignores it, so this hook is neither applied nor pruned (${path.join(dir, 'typos.yaml')}:1)`,
    ]);
    expect(lines[2]).toMatch(/^error: cannot reach the cluster/);
  }, 30_000);

  it('names a bad --timeout and the fix before loading anything or reaching the cluster', async () => {
    const result = await syncToClosedPort('missing.yaml', '--timeout', 'abc');
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: "abc" is not a number of seconds (--timeout): give seconds, like --timeout 300\n',
    );
  });
});

describe('wavesync sync against a cluster that refuses the credentials (401)', () => {
  let dir: string;
  let server: Server;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wavesync-sync-401-'));
    server = createHttpServer((_req, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', status: 'Failure', message: 'Unauthorized', code: 401 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await writeFile(
      path.join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'c', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } },
        ],
        users: [{ name: 'u', user: { token: 'expired' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    await writeFile(
      path.join(dir, 'app.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n',
    );
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('says the credentials were refused, where, and how to check them', async () => {
    const { port } = server.address() as AddressInfo;
    const result = await sync(
      path.join(dir, 'app.yaml'),
      '--kubeconfig',
      path.join(dir, 'kubeconfig'),
      '-n',
      'default',
    );

    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toBe(
      `error: the cluster refused the kubeconfig's credentials: 401 Unauthorized (http://127.0.0.1:${port}): ` +
        "check the current context's user: `kubectl auth whoami` with the same --kubeconfig/--context must answer; " +
        'renew an expired token or client certificate, or log in again\n',
    );
  }, 30_000);
});
