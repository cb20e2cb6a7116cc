/**
 * App of Apps: the child Applications among a parent's sync tasks, the runtime that syncs them in turn (the
 * worker's JobLifecycle), the ports it codes against (announcer, chain store) and the chain store in Redis.
 */

export * from './app-of-apps.js';
export * from './app-of-apps-driver.js';
export * from './app-of-apps-ports.js';
export * from './redis-chain-store.js';
export { type ApplicationResolver, createApplicationResolver } from './resolve-application.js';
