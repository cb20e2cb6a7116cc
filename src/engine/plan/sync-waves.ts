/**
 * SyncWave of an object. Source: gitops-engine `pkg/sync/syncwaves/waves.go` and `pkg/sync/hook/helm/weight.go`.
 *
 * `argocd.argoproj.io/sync-wave` parsed with Go `strconv.Atoi`; when absent or unparsable, `helm.sh/hook-weight`
 * (on any object, hook or not); when that is absent or unparsable too, 0. Argo CD falls back silently; wavesync
 * falls back the same way and reports each fallback through `warn`.
 */
import { Annotations, type KubeObject, type SyncWave } from '../../domain/index.js';
import { annotationOf } from '../object-annotations.js';
import { ignoreWarnings, type Warn } from '../plan-warning.js';
import { goAtoi } from './go-atoi.js';

/** The wave of `obj` (an integer, negatives allowed); warns when an annotation is present but not an integer. */
export function syncWaveOf(obj: KubeObject, warn: Warn = ignoreWarnings): SyncWave {
  const waveText = annotationOf(obj, Annotations.syncWave);
  if (waveText !== undefined) {
    const wave = goAtoi(waveText);
    if (wave !== undefined) return wave;
  }
  const weightText = annotationOf(obj, Annotations.helmHookWeight);
  const weight = weightText === undefined ? undefined : goAtoi(weightText);
  const result = weight ?? 0;
  if (waveText !== undefined) {
    const fallback = weight === undefined ? '0' : `${Annotations.helmHookWeight} ${weight}`;
    warn(`${notAnInteger(Annotations.syncWave, waveText)}; Argo CD falls back to ${fallback}`);
  }
  if (weightText !== undefined && weight === undefined && waveText === undefined) {
    warn(`${notAnInteger(Annotations.helmHookWeight, weightText)}; Argo CD falls back to wave 0`);
  }
  return result;
}

function notAnInteger(key: string, value: string): string {
  return `annotation ${key}: ${JSON.stringify(value)} is not an integer (Go strconv.Atoi syntax)`;
}
