/**
 * A control for latency bounds on a shared machine: a Node process that does nothing but answer `GET /` with
 * `ok`. What it takes to answer is what the machine's load alone adds to any process's answer at that moment
 * (waiting for a core, the client's own delays), measured in the same run as the process under test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface IdleHttpProcess {
  /** Milliseconds from sending `GET /` to the whole answer read. */
  latency(): Promise<number>;
  stop(): Promise<void>;
}

const SERVER = `
const server = require('node:http').createServer((req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

export async function startIdleHttpProcess(): Promise<IdleHttpProcess> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`idle HTTP process exited (${code}) before it listened`)));
  });
  return {
    async latency() {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/`);
      await response.text();
      return performance.now() - started;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
