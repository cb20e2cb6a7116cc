/**
 * Build step after tsc (`npm run build`): replaces dist/src/kube/client-node.js — the re-exports of the
 * @kubernetes/client-node files wavesync uses — with one esbuild bundle of them and their dependencies. client-node's
 * config.js imports `createConfiguration` and `ServerConfiguration` from its generated index, which would load all
 * ~800 generated API and model modules (~0.7 s of CPU at every start of `wavesync sync`, the worker and the bot);
 * the bundle resolves that import to the two files defining them. Node built-ins stay imports; CommonJS
 * dependencies get a `require` from createRequire. `node scripts/bundle-client-node.mjs [FILE]`: another compiled
 * copy of src/kube/client-node.ts (the scale bench compiles its own).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  clientNodeLazyDependencies,
  clientNodeWithoutGeneratedApi,
  REQUIRE_BANNER,
} from './client-node-plugin.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'src', 'kube', 'client-node.js'));

const source = await readFile(output, 'utf8');
if (!source.includes('@kubernetes/client-node/')) {
  throw new Error(
    `${output} does not re-export @kubernetes/client-node files (already bundled? run tsc first)`,
  );
}
const result = await build({
  stdin: { contents: source, resolveDir: path.dirname(output), sourcefile: 'client-node.js' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: output,
  allowOverwrite: true,
  banner: { js: REQUIRE_BANNER },
  plugins: [clientNodeWithoutGeneratedApi, clientNodeLazyDependencies],
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs).length;
const bytes = Object.values(result.metafile.outputs)[0]?.bytes ?? 0;
console.log(`bundled ${path.relative(root, output)}: ${inputs} modules, ${(bytes / 1024).toFixed(0)} KiB`);
