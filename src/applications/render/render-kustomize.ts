/**
 * renderKustomize — renders a Kustomize directory to YAML with the first available renderer: `kustomize build
 * <dir>`, else `kubectl kustomize <dir>` (Debian's kubernetes-client package provides the latter). Spawned through
 * spawnWithTimeout (array arguments, no shell, a timeout, bounded stderr for the error message).
 */
import path from 'node:path';
import { BotError, ManifestError } from '../../domain/index.js';
import { spawnWithTimeout } from './spawn-with-timeout.js';

/** A command line that renders a Kustomize directory; the directory is appended as the last argument. */
interface KustomizeRenderer {
  command: string;
  args: readonly string[];
}

export interface KustomizeOptions {
  /** Give up after this many ms (default 60 000). */
  timeoutMs?: number;
  /** Renderers tried in order; default `kustomize build`, then `kubectl kustomize`. */
  renderers?: readonly KustomizeRenderer[];
}

const DEFAULT_KUSTOMIZE_RENDERERS: readonly KustomizeRenderer[] = [
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

async function run(
  renderer: KustomizeRenderer,
  dir: string,
  timeoutMs: number,
): Promise<string | 'not-found'> {
  const commandLine = [renderer.command, ...renderer.args, dir].join(' ');
  const outcome = await spawnWithTimeout(renderer.command, [...renderer.args, path.resolve(dir)], {
    timeoutMs,
  });
  switch (outcome.kind) {
    case 'ok':
      return outcome.stdout;
    case 'not-found':
      return 'not-found';
    // A failed build is a failed render (exit 1 in the CLI, README "Exit codes"), not a manifest wavesync checked.
    case 'spawn-error':
      throw new BotError('render_failed', `${commandLine} failed: ${outcome.error.message}`, {
        cause: outcome.error,
        detail: outcome.error.message,
      });
    case 'failed': {
      const detail = outcome.stderr || '(no stderr)';
      throw new BotError('render_failed', `${commandLine} ${outcome.why}: ${detail}`, { detail });
    }
  }
}
