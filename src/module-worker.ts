/**
 * startModuleWorker — a worker thread running a module of the caller's own kind: the compiled JavaScript as it
 * is (dist/, an installed package), the TypeScript sources through tsx (a checkout run by `bin/wavesync.js`, tsx,
 * vitest), which a worker thread does not inherit from the thread that starts it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Every module wavesync starts with startModuleWorker, by its path under src/ without extension. The CLI bundle
 * (scripts/bundle-cli.mjs) makes each an entry of its own next to the chunks that start it by URL; a module
 * started as a thread but missing here is missing from the bundle ("the worker thread ended before it started").
 */
/** @public Read from the compiled module by scripts/bundle-cli.mjs (a dynamic import knip cannot follow). */
export const THREAD_MODULES = ['health-scripts/health-script-worker', 'main/worker-thread-entry'] as const;

/**
 * Start `name` (the module's path relative to `here`, or its file URL, without its extension, e.g.
 * `./health-script-worker`) in a worker thread; `here` is the caller's `import.meta.url`.
 */
export function startModuleWorker(here: string, name: string, options: WorkerOptions): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`${name}.js`, here), options);
  const tsxDir = path.dirname(createRequire(here).resolve('tsx/package.json'));
  const tsx = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const entry = new URL(`${name}.ts`, here).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { ...options, eval: true });
}
