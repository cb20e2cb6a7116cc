/** wavesync.yaml: schema, loading, and lookups used by the application registry and the worker. */
export * from './environments-schema.js';
export * from './load-settings.js';
export * from './resolve-cluster.js';
export * from './settings-schema.js';
export * from './yaml-issues.js';
