/**
 * planLoaded — the plan of loaded manifests with nothing live, shared by `plan` and `sync`; apart from
 * plan-application.ts so that `sync <path>` loads the manifest loader and the engine, not git, Helm or settings.
 */
import { contentRevisionOf, type LoadedManifests } from '../applications/manifests/index.js';
import { type BuildSyncTasksResult, buildSyncTasks, syncOptionProblem } from '../engine/index.js';

/**
 * The plan of loaded manifests with nothing live, and every warning: the loader's (YAML), the planner's (hook
 * types, delete policies, waves, sync-options annotations) and the app-level `syncOptions` Argo CD does not know
 * (at `--sync-option`, line 0).
 */
export function planLoaded(
  loaded: LoadedManifests,
  namespace: string,
  syncOptions: readonly string[],
  lint: { lintReferences?: boolean } = {},
): BuildSyncTasksResult {
  const plan = buildSyncTasks({
    targets: loaded.objects,
    live: [],
    namespace,
    revision: contentRevisionOf(loaded.objects),
    startedAt: new Date().toISOString(),
    operation: { prune: false, dryRun: true, syncOptions: [...syncOptions] },
    ...lint,
  });
  const optionWarnings = syncOptions.flatMap((option) => {
    const problem = syncOptionProblem(option);
    return problem === undefined ? [] : [{ file: '--sync-option', line: 0, message: problem }];
  });
  return { tasks: plan.tasks, warnings: [...optionWarnings, ...loaded.warnings, ...plan.warnings] };
}
