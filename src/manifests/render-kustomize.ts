/**
 * renderKustomize — renders a Kustomize directory to YAML with the first available renderer: `kustomize build
 * <dir>`, else `kubectl kustomize <dir>` (Debian's kubernetes-client package provides the latter). Spawned with
 * array arguments (no shell), a timeout, and stderr kept for the error message.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ManifestError } from '../domain/index.js';

/** A command line that renders a Kustomize directory; the directory is appended as the last argument. */
export interface KustomizeRenderer {
  command: string;
  args: readonly string[];
}

export interface KustomizeOptions {
  /** Give up after this many ms (default 60 000). */
  timeoutMs?: number;
  /** Renderers tried in order; default `kustomize build`, then `kubectl kustomize`. */
  renderers?: readonly KustomizeRenderer[];
}

export const DEFAULT_KUSTOMIZE_RENDERERS: readonly KustomizeRenderer[] = [
  { command: 'kustomize', args: ['build'] },
  { command: 'kubectl', args: ['kustomize'] },
];

/** File names that make a directory a Kustomize source (as Argo CD and kustomize recognise them). */
export const KUSTOMIZATION_FILES: readonly string[] = [
  'kustomization.yaml',
  'kustomization.yml',
  'Kustomization',
];

/**
 * The rendered YAML of the Kustomize directory `dir`. Throws ManifestError (file = `dir`) naming the missing
 * binaries when none is on PATH, or quoting stderr when rendering fails or times out.
 */
export async function renderKustomize(dir: string, opts: KustomizeOptions = {}): Promise<string> {
  const renderers = opts.renderers ?? DEFAULT_KUSTOMIZE_RENDERERS;
  for (const renderer of renderers) {
    const outcome = await run(renderer, dir, opts.timeoutMs ?? 60_000);
    if (outcome === 'not-found') continue;
    return outcome;
  }
  const names = renderers.map((r) => `\`${r.command}\``);
  const missing =
    names.length === 1 ? `${names[0]} is not on PATH` : `neither ${names.join(' nor ')} is on PATH`;
  throw new ManifestError(
    dir,
    undefined,
    `is a Kustomize source but ${missing}; install kustomize or kubectl ` +
      '(Debian: apt-get install kubernetes-client) to render it',
  );
}

function run(renderer: KustomizeRenderer, dir: string, timeoutMs: number): Promise<string | 'not-found'> {
  const commandLine = [renderer.command, ...renderer.args, dir].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(renderer.command, [...renderer.args, path.resolve(dir)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT') resolve('not-found');
      else
        reject(
          new ManifestError(dir, undefined, `${commandLine} failed: ${error.message}`, { cause: error }),
        );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(stdout).toString('utf8'));
      const why = signal === 'SIGKILL' ? `timed out after ${timeoutMs} ms` : `exited with ${code ?? signal}`;
      reject(new ManifestError(dir, undefined, `${commandLine} ${why}: ${stderr.trim() || '(no stderr)'}`));
    });
  });
}
