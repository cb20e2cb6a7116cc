import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      // Start-up compiles the CLI with tsx: seconds on an idle machine, much longer on a loaded one (the test
      // timeout is 60 s). A process that exits instead fails at once with what it printed.
      const timer = setTimeout(() => reject(new Error(`no URL printed within 50 s: ${out}${err}`)), 50_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`cluster-sim exited with ${code} before printing a URL: ${out}${err}`));
      });
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
    // stdout is the one line for scripts; the logs are readable lines on stderr, not JSON.
    expect(out).toBe(`Kubernetes API simulator listening on ${url} (speed 5)\n`);
    expect(err).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}Kubernetes API simulator listening url=http/m);
    expect(err).toContain(`kubeconfig written; use: export KUBECONFIG=${file}`);
    expect(err).not.toContain('{"level"');
  }, 30_000);

  it('when the port is taken, then it exits 1 with one line naming the address, not a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const result = await promisify(execFile)(process.execPath, [
        BIN,
        'cluster-sim',
        '--port',
        String(port),
      ]).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(result).toEqual({
        code: 1,
        stderr: `error: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      });
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  }, 30_000);
});
