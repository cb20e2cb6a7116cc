/**
 * Build step after tsc (`npm run build`), before scripts/bundle-client-node.mjs: bundles the command line
 * (dist/src/cli/main.js, as tsc wrote it) into dist/cli/ with esbuild, which bin/wavesync.js runs when it is current.
 * Start-up of `wavesync sync <dir>` loaded ~150 modules, each resolved, read and compiled on its own; the bundle is
 * one file for what every command needs (commander, the program, the registrations) and one chunk per group of
 * modules a command imports when it runs (ES module code splitting: the commands' lazy `import()`s stay lazy, so
 * `--help` still loads no engine, and `sync` no Bolt, BullMQ, git or Helm).
 *
 * Bundled: wavesync's own modules, `yaml`, `commander`, `fastest-levenshtein` and @kubernetes/client-node without its
 * generated API (see client-node-plugin.mjs). Every other dependency stays an import of node_modules: those that
 * read their own files by path (BullMQ's Lua scripts, Bull Board's UI, pino's transports, fengari through
 * createRequire) and the big ones only long-running commands load. The modules started as worker threads
 * (THREAD_MODULES of src/module-worker.ts: the health-script worker, serve's sync worker) are entries of their own,
 * next to the chunks that start them by URL.
 * `node scripts/bundle-cli.mjs` after tsc; prints the modules bundled and the size of the entry.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import {
  clientNodeLazyDependencies,
  clientNodeWithoutGeneratedApi,
  REQUIRE_BANNER,
} from './client-node-plugin.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'dist', 'src');
const outdir = path.join(root, 'dist', 'cli');

/** Dependencies bundled; every other one of package.json stays external. */
const BUNDLED = new Set(['yaml', 'commander', 'fastest-levenshtein', '@kubernetes/client-node']);

const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

// The modules started as worker threads (src/module-worker.ts), as tsc compiled it.
const { THREAD_MODULES } = await import(pathToFileURL(path.join(compiled, 'module-worker.js')).href);

const clientNode = await readFile(path.join(compiled, 'kube', 'client-node.js'), 'utf8');
if (!clientNode.includes('@kubernetes/client-node/')) {
  throw new Error('dist/src/kube/client-node.js is bundled already: run this script right after tsc');
}

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    main: path.join(compiled, 'cli', 'main.js'),
    ...Object.fromEntries(THREAD_MODULES.map((m) => [path.basename(m), path.join(compiled, `${m}.js`)])),
  },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir,
  // Chunks beside the entries: a module's `new URL('./health-script-worker.js', import.meta.url)` finds the worker.
  chunkNames: 'chunk-[hash]',
  external,
  banner: { js: REQUIRE_BANNER },
  plugins: [clientNodeWithoutGeneratedApi, clientNodeLazyDependencies],
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs).length;
const outputs = Object.entries(result.metafile.outputs);
const main = outputs.find(([file]) => file.endsWith('/main.js'))?.[1].bytes ?? 0;
console.log(
  `bundled dist/cli: ${inputs} modules into ${outputs.length} files (main.js ${(main / 1024).toFixed(0)} KiB)`,
);
