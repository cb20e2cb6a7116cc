/** True when `kustomize` or `kubectl` (which renders Kustomize) runs on this machine. */
import { spawn } from 'node:child_process';

function runs(command: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', timeout: 10_000 });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

export async function hasKustomizeRenderer(): Promise<boolean> {
  return (await runs('kustomize', ['version'])) || (await runs('kubectl', ['version', '--client']));
}
