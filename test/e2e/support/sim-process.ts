/**
 * The Kubernetes API simulator in a process of its own (`wavesync cluster-sim`), for tests that time another
 * process: an in-process simulator would share the test's event loop, and its work (thousands of applies) would
 * show up as the measured process's latency.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface SimProcess {
  readonly child: ChildProcess;
  readonly kubeconfig: string;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../../..');

/** Start the simulator at `speed`, writing its kubeconfig to `kubeconfig`; resolves once it listens. */
export async function startSimProcess(kubeconfig: string, speed = 20): Promise<SimProcess> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/wavesync.js'),
      'cluster-sim',
      '--speed',
      String(speed),
      '--kubeconfig-out',
      kubeconfig,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`cluster-sim did not start within 90 s: ${output}`)),
      90_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`cluster-sim exited before it listened: ${output}`));
    });
  });
  return {
    child,
    kubeconfig,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
