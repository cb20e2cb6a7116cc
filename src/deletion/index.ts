/** Deleting an Application (`/sync delete`): the cascading delete, PreDelete/PostDelete hooks, the plan. */

export * from './application-deletion.js';
export * from './delete-application.js';
export * from './deletion-hooks.js';
