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
  return (await spawnTsxScript(SCRIPT, { ...env }, /ready/, 20_000)).child;
}

/**
 * Run `script` under tsx with `env` added; resolves once its stdout matched `ready` (with the match), rejects if it
 * exits first or after `timeoutMs`.
 */
export async function spawnTsxScript(
  script: string,
  env: Record<string, string | undefined>,
  ready: RegExp,
  timeoutMs: number,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${path.basename(script)} not ready in ${timeoutMs} ms: ${stderr}`)),
      timeoutMs,
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = ready.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(script)} exited with ${code}: ${stderr}`));
    });
  });
  return { child, match };
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
