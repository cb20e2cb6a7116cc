/**
 * The tool that renders an Application's folder, as Argo CD decides (pkg/apis/.../types.go ExplicitType, then
 * reposerver discovery): a `chart` (from a Helm repository or OCI registry) is Helm; an explicit `helm`, `kustomize` or `directory` block wins (more than one is an error);
 * otherwise a `Chart.yaml` makes it Helm, a kustomization file Kustomize, and anything else a Directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ApplicationSource } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { KUSTOMIZATION_FILES } from './render-kustomize.js';

export type ApplicationSourceType = 'Helm' | 'Kustomize' | 'Directory' | 'Plugin';

/** @throws BotError('render_failed') for more than one explicit type. A `chart` source is Helm. */
export function sourceTypeOf(source: ApplicationSource, dir: string): ApplicationSourceType {
  if (source.chart) return 'Helm';
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
