/**
 * A private redis-server for tests that stop Redis. It persists to an append-only file in a temporary
 * directory (fsync always) so that a restart brings the queue back as a real Redis restart would.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  answers,
  exited,
  freePort,
  killHard,
  removeTempDir,
  spawnTracked,
  tempDir,
} from '../../support/redis-topologies.js';

export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stop and delete its files. */
  dispose(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = await tempDir('wavesync-redis-');
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'];
      child = spawnTracked([...args, '--appendfsync', 'always', '--dir', dir]);
      for (let i = 0; i < 100 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
      if (!(await answers(port))) {
        await killHard(child);
        throw new Error(`redis-server did not start on ${port}`);
      }
    },
    async stop() {
      if (!child || exited(child)) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    },
    async dispose() {
      try {
        if (child) await killHard(child);
      } finally {
        await removeTempDir(dir);
      }
    },
  };
  try {
    await own.start();
  } catch (error) {
    await own.dispose();
    throw error;
  }
  return own;
}
