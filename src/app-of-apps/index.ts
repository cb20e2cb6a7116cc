/** App of Apps: the child Applications among a parent's sync tasks, and the runtime that syncs them in turn. */

export * from './app-of-apps.js';
