/**
 * `wavesync demo` as a newcomer runs it: `node bin/wavesync.js demo …` as a child process with only PATH, HOME and
 * the Redis variables given (default: REDIS_URL from the test's environment, when set).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export interface DemoRun {
  code: number | null;
  /** stdout and stderr, interleaved as they came. */
  out: string;
  /** Wall time of the whole process, ms. */
  ms: number;
}

export function runDemoProcess(args: readonly string[], redisEnv?: Record<string, string>): Promise<DemoRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/wavesync.js'), 'demo', ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...(redisEnv ?? (process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {})),
      },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, out, ms: performance.now() - started }));
  });
}
