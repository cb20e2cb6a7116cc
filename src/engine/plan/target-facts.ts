/**
 * What the planner needs to know about one desired object, read once: its hook traits, phases, wave and the
 * warnings for silent Argo CD fallbacks (each reported once per object, prefixed with `Kind/name`). The object
 * gets the destination namespace when it has none — even cluster-scoped kinds (spec §3.1 step 4).
 */
import { Annotations, type KubeObject, type SyncPhase } from '../../domain/index.js';
import { deletePoliciesOf } from '../hooks/delete-policy.js';
import { hookTraitsOf } from '../hooks/hook.js';
import { annotationCsvOf } from '../object-annotations.js';
import type { PlanWarning, Warn } from '../plan-warning.js';
import type { ManifestSource, SourcedObject, SyncTask } from '../sync-task.js';
import { syncOptionProblem } from './sync-option-names.js';
import { syncPhasesOfTraits } from './sync-phases.js';
import { syncWaveOf } from './sync-waves.js';

/** A SourcedObject (with the destination namespace applied) plus its facts. */
export interface Target extends SourcedObject {
  source: ManifestSource;
  hook: boolean;
  ignored: boolean;
  phases: SyncPhase[];
  hookTypes: SyncTask['hookTypes'];
  wave: number;
}

/**
 * Reads targets one after another, collecting their warnings (each once per object, prefixed with `Kind/name`).
 * One reader per buildSyncTasks call: a single warn callback serves every object.
 */
export function createTargetReader(
  namespace: string,
  warnings: PlanWarning[],
): (sourced: SourcedObject) => Target {
  let current: SourcedObject | undefined;
  let seen: string[] = [];
  const warn: Warn = (message) => {
    if (current === undefined || seen.includes(message)) return;
    seen.push(message);
    const { file, line } = current.source;
    warnings.push({
      file,
      line,
      message: `${current.object.kind}/${nameForMessages(current.object)}: ${message}`,
    });
  };
  return (sourced) => {
    current = sourced;
    if (seen.length > 0) seen = [];
    const traits = hookTraitsOf(sourced.object, warn);
    const wave = syncWaveOf(sourced.object, warn);
    if (traits.hook && !traits.ignored) deletePoliciesOf(sourced.object, warn);
    for (const option of annotationCsvOf(sourced.object, Annotations.syncOptions)) {
      const problem = syncOptionProblem(option);
      if (problem !== undefined) warn(`${Annotations.syncOptions}: ${problem}`);
    }
    return {
      object: withNamespace(sourced.object, namespace),
      source: sourced.source,
      hook: traits.hook,
      ignored: traits.ignored,
      phases: syncPhasesOfTraits(traits),
      hookTypes: traits.types,
      wave,
    };
  };
}

/** A copy with the destination namespace when the object has none (even cluster-scoped kinds, §3.1 step 4). */
function withNamespace(obj: KubeObject, namespace: string): KubeObject {
  if (obj.metadata.namespace || namespace === '') return obj;
  return { ...obj, metadata: { ...obj.metadata, namespace } };
}

function nameForMessages(obj: KubeObject): string {
  return obj.metadata.name || `${obj.metadata.generateName ?? ''}*`;
}
