/**
 * What the planner needs to know about one desired object, read once: its hook traits, phases, wave and the
 * warnings for silent Argo CD fallbacks (each reported once per object, prefixed with `Kind/name`). The object
 * gets the destination namespace when it has none — even cluster-scoped kinds (spec §3.1 step 4).
 */
import type { KubeObject, SyncPhase } from '../domain/index.js';
import { deletePoliciesOf } from './hooks/delete-policy.js';
import { hookTraitsOf } from './hooks/hook.js';
import type { PlanWarning, Warn } from './plan-warning.js';
import { syncPhasesOfTraits } from './sync-phases.js';
import type { ManifestSource, SourcedObject, SyncTask } from './sync-task.js';
import { syncWaveOf } from './sync-waves.js';

/** Target facts computed once per object. */
export interface Target {
  obj: KubeObject;
  source: ManifestSource;
  hook: boolean;
  ignored: boolean;
  phases: SyncPhase[];
  hookTypes: SyncTask['hookTypes'];
  wave: number;
}

/** Facts of `sourced`; appends its warnings to `warnings`. */
export function describeTarget(sourced: SourcedObject, namespace: string, warnings: PlanWarning[]): Target {
  const { file, line } = sourced.source;
  const seen = new Set<string>();
  const warn: Warn = (message) => {
    if (seen.has(message)) return;
    seen.add(message);
    warnings.push({
      file,
      line,
      message: `${sourced.object.kind}/${nameForMessages(sourced.object)}: ${message}`,
    });
  };
  const traits = hookTraitsOf(sourced.object, warn);
  const wave = syncWaveOf(sourced.object, warn);
  if (traits.hook && !traits.ignored) deletePoliciesOf(sourced.object, warn);
  return {
    obj: withNamespace(sourced.object, namespace),
    source: sourced.source,
    hook: traits.hook,
    ignored: traits.ignored,
    phases: syncPhasesOfTraits(traits),
    hookTypes: traits.types,
    wave,
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
