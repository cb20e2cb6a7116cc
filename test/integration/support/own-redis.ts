/**
 * A private redis-server for tests that stop Redis. It persists to an append-only file in a temporary
 * directory (fsync always) so that a restart brings the queue back as a real Redis restart would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answers, freePort } from '../../support/redis-topologies.js';

export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stop and delete its files. */
  dispose(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'wavesync-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'];
      child = spawn('redis-server', [...args, '--appendfsync', 'always', '--dir', dir], { stdio: 'ignore' });
      for (let i = 0; i < 100 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
      if (!(await answers(port))) throw new Error(`redis-server did not start on ${port}`);
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
    async dispose() {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}
