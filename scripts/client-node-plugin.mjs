/**
 * An esbuild plugin for bundling @kubernetes/client-node without its generated API: client-node's config.js imports
 * `createConfiguration` and `ServerConfiguration` from its generated index (`./gen/index.js`), which would load all
 * ~800 generated API and model modules (~0.7 s of CPU at every start); this resolves that one import to the two
 * files defining them. Used by scripts/bundle-client-node.mjs and scripts/bundle-cli.mjs.
 */
import path from 'node:path';

export const clientNodeWithoutGeneratedApi = {
  name: 'client-node-generated-index',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/gen\/index\.js$/ }, (args) =>
      args.importer.endsWith(`${path.sep}client-node${path.sep}dist${path.sep}config.js`)
        ? { path: path.join(args.resolveDir, 'gen', 'config-only.js'), namespace: 'client-node-gen' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'client-node-gen' }, (args) => ({
      contents:
        "export { createConfiguration } from './configuration.js';\nexport { ServerConfiguration } from './servers.js';\n",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * The banner of an ESM bundle holding CommonJS modules: they `require` Node's built-ins (and external packages),
 * which an ES module has no `require` for.
 */
export const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";
