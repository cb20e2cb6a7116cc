/**
 * Deleting an Application (`/sync delete`): the cascading delete, PreDelete/PostDelete hooks, the plan, and the
 * DeletionPlanner port the Slack command codes against.
 */

export * from './application-deletion.js';
export * from './delete-application.js';
export * from './deletion-hooks.js';
export * from './deletion-planner.js';
