/**
 * Deleting an Application (`/sync delete`): the cascading delete, PreDelete/PostDelete hooks, the plan, and the
 * DeletionPlanner port the Slack command codes against.
 */

export {
  confirmationKeys,
  type DeletionPlan,
  planDeletion,
  planHash,
} from './application-deletion.js';

export { renderedDeletionHooks } from './deletion-hooks.js';
export { createDeletionPlanner, type DeletionPlanner } from './deletion-planner.js';
export {
  type DeletionRunnerDeps,
  runDeletion,
  workerDeletion,
} from './run-deletion.js';
