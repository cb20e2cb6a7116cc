/**
 * The JSON form of a sync plan: `wavesync plan --output json`. A stable contract other tools rely on:
 * `{"tasks":[{phase,wave,group,version,kind,namespace,name,hookTypes,deletePolicies}],"warnings":[{file,line,message}]}`
 * with tasks in execution order; `namespace` is '' for cluster-scoped objects (cluster-scoped-kinds.ts).
 */

import type { BuildSyncTasksResult } from '../engine/index.js';
import { clusterScopedIn } from '../engine/index.js';

/** Pretty-printed JSON (2 spaces) followed by a newline. */
export function formatPlanJson(plan: BuildSyncTasksResult): string {
  const clusterScoped = clusterScopedIn(plan.tasks);
  const tasks = plan.tasks.map((t) => ({
    phase: t.phase,
    wave: t.wave,
    group: t.group,
    version: t.version,
    kind: t.kind,
    namespace: clusterScoped(t) ? '' : t.namespace,
    name: t.name,
    hookTypes: t.hookTypes,
    deletePolicies: t.deletePolicies,
  }));
  const warnings = plan.warnings.map(({ file, line, message }) => ({ file, line, message }));
  return `${JSON.stringify({ tasks, warnings }, null, 2)}\n`;
}
