/**
 * Spawn queue worker processes (`queue-worker-process.ts` under tsx) and stop them, for tests that need
 * several processes or a kill -9.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const SCRIPT = path.join(import.meta.dirname, 'queue-worker-process.ts');

export interface WorkerProcessEnv {
  QUEUE_REDIS_URL: string;
  RECORD_REDIS_URL: string;
  PREFIX: string;
  STEPS?: string;
  STEP_MS?: string;
  CONCURRENCY?: string;
  LOCK_MS?: string;
}

/** Start a worker process and resolve once it printed `ready` (rejects if it exits first or after 20 s). */
export async function spawnWorkerProcess(env: WorkerProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker not ready in 20 s: ${stderr}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}: ${stderr}`));
    });
  });
  return child;
}

/** SIGTERM (graceful) or SIGKILL a worker process and wait for it to exit. */
export async function stopWorkerProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
