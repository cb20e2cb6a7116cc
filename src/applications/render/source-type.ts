/**
 * The tool that renders an Application's folder, as Argo CD decides (pkg/apis/.../types.go ExplicitType, then
 * reposerver discovery): an explicit `helm`, `kustomize` or `directory` block wins (more than one is an error);
 * otherwise a `Chart.yaml` makes it Helm, a kustomization file Kustomize, and anything else a Directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ApplicationSource } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { KUSTOMIZATION_FILES } from './render-kustomize.js';

export type ApplicationSourceType = 'Helm' | 'Kustomize' | 'Directory' | 'Plugin';

/** @throws BotError('render_failed') for `chart` sources and for more than one explicit type. */
export function sourceTypeOf(source: ApplicationSource, dir: string): ApplicationSourceType {
  if (source.chart !== undefined) {
    throw new BotError(
      'render_failed',
      'spec.source.chart (Helm repository charts) is not supported; use a chart folder in git',
    );
  }
  const explicit = (
    [
      ['Helm', source.helm],
      ['Kustomize', source.kustomize],
      ['Directory', source.directory],
      ['Plugin', source.plugin],
    ] as const
  ).filter(([, block]) => block !== undefined);
  if (explicit.length > 1) {
    throw new BotError(
      'render_failed',
      `multiple application sources defined: ${explicit.map(([t]) => t).join(', ')}`,
    );
  }
  if (explicit[0]) return explicit[0][0];
  if (existsSync(path.join(dir, 'Chart.yaml'))) return 'Helm';
  if (KUSTOMIZATION_FILES.some((f) => existsSync(path.join(dir, f)))) return 'Kustomize';
  return 'Directory';
}
