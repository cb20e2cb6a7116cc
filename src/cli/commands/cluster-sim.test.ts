import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig, VersionApi } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(import.meta.dirname, '../../../bin/wavesync.js');

describe('wavesync cluster-sim', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('starts the simulator, writes a kubeconfig client-node accepts, and stops on SIGTERM', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-sim-cli-'));
    dirs.push(dir);
    const file = path.join(dir, 'kubeconfig');
    const child = spawn(
      process.execPath,
      [BIN, 'cluster-sim', '--port', '0', '--speed', '5', '--kubeconfig-out', file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const kc = new KubeConfig();
    kc.loadFromString(await readFile(file, 'utf8'));
    expect(kc.getCurrentCluster()).toMatchObject({ server: url, skipTLSVerify: true });
    const version = await kc.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toBe('v1.32.0-wavesync-sim');
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});
