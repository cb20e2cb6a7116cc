/**
 * A control for latency bounds on a shared machine: a Node process shaped like a busy server that never holds its
 * event loop long — it works in pieces of 20 ms of CPU, each followed by 20 ms idle (half a core when it gets one),
 * and answers `GET /` with `ok` between them. What it takes to answer is what the machine's load does to such a
 * process at that moment (waiting for a core, the client's own delays), measured in the same run as the process
 * under test. (An idle process is no control: the scheduler runs a process that seldom wakes at once, ahead of
 * busy ones.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface ControlHttpProcess {
  /** Milliseconds from sending `GET /` to the whole answer read. */
  latency(): Promise<number>;
  stop(): Promise<void>;
}

const SERVER = `
const server = require('node:http').createServer((req, res) => res.end('ok'));
const work = () => {
  const until = performance.now() + 20;
  while (performance.now() < until);
  setTimeout(work, 20);
};
server.listen(0, '127.0.0.1', () => {
  console.log(server.address().port);
  work();
});
`;

export async function startControlHttpProcess(): Promise<ControlHttpProcess> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) =>
      reject(new Error(`control HTTP process exited (${code}) before it listened`)),
    );
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
