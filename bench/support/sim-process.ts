/**
 * What the benches against kubectl share: the simulator in its own process (`wavesync cluster-sim`, its kubeconfig
 * written), and the mixed objects they apply (as BENCHMARKS.md "Scale" describes).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface SimProcess {
  kubeconfig: string;
  /** The simulator's CPU time so far (user + system, from /proc, 10 ms ticks), in ms. */
  cpuMs(): Promise<number>;
  stop(): void;
}

/** Starts `wavesync cluster-sim --speed SPEED` of the checkout at `root`, its kubeconfig in `dir`. */
export async function startSimProcess(root: string, dir: string, speed: number): Promise<SimProcess> {
  const kubeconfig = path.join(dir, 'kubeconfig');
  const args = [path.join(root, 'bin/wavesync.js'), 'cluster-sim', '--speed', String(speed)];
  const sim = spawn(process.execPath, [...args, '--kubeconfig-out', kubeconfig], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    sim.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
    sim.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  const cpuMs = async () => {
    const fields = (await readFile(`/proc/${sim.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  };
  return { kubeconfig, cpuMs, stop: () => sim.kill('SIGTERM') };
}

/** The i-th object of a mixed wave in `namespace`: ConfigMap 40 %, Secret 30 %, Service 20 %, ServiceAccount 10 %. */
export function mixedObject(i: number, namespace: string): Record<string, unknown> {
  const name = `obj-${String(i).padStart(5, '0')}`;
  const metadata = { name, namespace, labels: { tier: `t${i % 7}` } };
  const slot = i % 10;
  if (slot < 4)
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata,
      data: { index: String(i), text: 'x'.repeat(64) },
    };
  if (slot < 7) return { apiVersion: 'v1', kind: 'Secret', metadata, stringData: { password: `p-${i}` } };
  if (slot < 9)
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata,
      spec: { selector: { app: name }, ports: [{ port: 80 }] },
    };
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata };
}
