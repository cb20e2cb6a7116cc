import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorReport } from '../cli/command-io.js';
import { loadKubeConfig } from './load-kube-config.js';

describe('loadKubeConfig with no kubeconfig anywhere', () => {
  let home: string;

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'wavesync-home-'));
    vi.stubEnv('HOME', home);
    vi.stubEnv('KUBECONFIG', '');
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(home, { recursive: true, force: true });
  });

  it("says so and how to point at a cluster, instead of client-node's localhost:8080 fallback", () => {
    let thrown: unknown;
    try {
      loadKubeConfig();
    } catch (error) {
      thrown = error;
    }
    expect(errorReport(thrown, false)).toEqual({
      text:
        'error: no kubeconfig found ($KUBECONFIG is not set, ~/.kube/config does not exist, not running in a cluster): ' +
        'pass --kubeconfig <file> or set KUBECONFIG; to try wavesync without a cluster, start one with ' +
        '`wavesync cluster-sim --kubeconfig-out ./kubeconfig` and pass --kubeconfig ./kubeconfig\n',
      exitCode: 2,
    });
  });
});

describe('loadKubeConfig reads token files as kubectl does', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wavesync-kubeconfig-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function kubeconfigWith(user: Record<string, string>): Promise<string> {
    const file = path.join(dir, 'config');
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    };
    await writeFile(file, JSON.stringify(config));
    return file;
  }

  async function authorizationOf(kubeconfig: string): Promise<string | undefined> {
    const options: { headers?: Record<string, string> } = {};
    await loadKubeConfig({ kubeconfig }).applyToHTTPSOptions(options);
    return options.headers?.Authorization;
  }

  it('honours `tokenFile` (kubectl spelling), relative to the kubeconfig, trimmed', async () => {
    await writeFile(path.join(dir, 'token'), 'tok-123\n');

    expect(await authorizationOf(await kubeconfigWith({ tokenFile: 'token' }))).toBe('Bearer tok-123');
  });

  it('trims the trailing newline of a `token-file` (client-go TrimSpace)', async () => {
    await writeFile(path.join(dir, 'token'), '  tok-456 \n\n');

    expect(await authorizationOf(await kubeconfigWith({ 'token-file': path.join(dir, 'token') }))).toBe(
      'Bearer tok-456',
    );
  });

  it('lets an inline token take precedence over the token file, as client-go does', async () => {
    await writeFile(path.join(dir, 'token'), 'from-file\n');

    expect(await authorizationOf(await kubeconfigWith({ token: 'inline', tokenFile: 'token' }))).toBe(
      'Bearer inline',
    );
  });

  it('finds a token file key spelled with escapes in a double-quoted key', async () => {
    await writeFile(path.join(dir, 'token'), 'tok-789\n');
    const kubeconfig = await kubeconfigWith({ '@': 'token' });
    // JSON text is YAML: "token\u0046ile" is the key tokenFile.
    await writeFile(kubeconfig, (await readFile(kubeconfig, 'utf8')).replace('"@"', '"token\\u0046ile"'));

    expect(await authorizationOf(kubeconfig)).toBe('Bearer tok-789');
  });

  it('names an unreadable token file, its user and kubeconfig', async () => {
    const kubeconfig = await kubeconfigWith({ tokenFile: 'missing' });

    expect(() => loadKubeConfig({ kubeconfig })).toThrow(
      `cannot read the token file of user "u" (${path.join(dir, 'missing')}, from ${kubeconfig})`,
    );
  });
});

describe('loadKubeConfig with a kubeconfig that does not exist', () => {
  it('says so in the error format, with where and how to fix', () => {
    let thrown: unknown;
    try {
      loadKubeConfig({ kubeconfig: '/nope' });
    } catch (error) {
      thrown = error;
    }
    expect(errorReport(thrown, false)).toEqual({
      text:
        'error: kubeconfig not found (/nope): check the path given to --kubeconfig or $KUBECONFIG ' +
        '(`kubectl config view` shows what kubectl uses)\n',
      exitCode: 2,
    });
  });
});
