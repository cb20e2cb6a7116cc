/**
 * An esbuild plugin for bundling @kubernetes/client-node without its generated API: client-node's config.js imports
 * `createConfiguration` and `ServerConfiguration` from its generated index (`./gen/index.js`), which would load all
 * ~800 generated API and model modules (~0.7 s of CPU at every start); this resolves that one import to the two
 * files defining them. Used by scripts/bundle-client-node.mjs and scripts/bundle-cli.mjs.
 */
import { createRequire } from 'node:module';
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

/**
 * Dependencies of client-node that only some kubeconfigs or calls use: node-fetch (whatwg-url and tr46's 260 KB
 * mapping table: client-node's fetch path, Watch, and one `Headers` in config.js), the proxy agents
 * (socks-proxy-agent with socks, ip-address and smart-buffer; hpagent: a `proxy-url`), openid-client with jose and
 * oauth4webapi (the `oidc` auth provider) and jsonpath-plus (the `azure` and `gcp` auth providers). Together ~900 KB
 * of the client-node chunk's 1 MB: bundled, even unrun, V8 pre-parsed them at every start (~18 ms of CPU).
 */
const LAZY_DEPENDENCIES = ['node-fetch', 'socks-proxy-agent', 'hpagent', 'openid-client', 'jsonpath-plus'];

/**
 * An esbuild plugin that leaves LAZY_DEPENDENCIES (and what they import) out of the bundle and loads each from
 * node_modules when first used: client-node's import of one of them resolves to a small CommonJS stand-in whose
 * exports are getters (and, for a function like node-fetch's `fetch`, a function) that `require` the real module on
 * first access — resolved from @kubernetes/client-node's own folder, as client-node itself would find it (npm may
 * nest a version of its own there). openid-client and jsonpath-plus's ES modules are loaded by `require` (Node
 * ≥ 20.19). The export names are read from the real module at build time, so a new version's exports are followed.
 */
export const clientNodeLazyDependencies = {
  name: 'client-node-lazy-dependencies',
  setup(builder) {
    const filter = new RegExp(`^(${LAZY_DEPENDENCIES.join('|')})$`);
    const clientNodeFile = `${path.sep}@kubernetes${path.sep}client-node${path.sep}dist${path.sep}`;
    builder.onResolve({ filter }, (args) =>
      args.importer.includes(clientNodeFile) && args.kind === 'import-statement'
        ? { path: args.path, namespace: 'lazy-dependency', pluginData: { resolveDir: args.resolveDir } }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'lazy-dependency' }, async (args) => {
      const { resolveDir } = args.pluginData;
      const resolved = await builder.resolve(args.path, { kind: 'require-call', resolveDir });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      const real = createRequire(path.join(resolveDir, 'index.js'))(resolved.path);
      const names = Object.keys(real).filter((name) => name !== '__esModule');
      const module = JSON.stringify(args.path);
      const exports =
        typeof real === 'function' ? 'function (...args) { return load().apply(this, args); }' : '{}';
      return {
        contents: [
          "const { createRequire } = require('node:module');",
          'let real;',
          // Not a literal require: esbuild leaves it (and the module's own imports) out of the bundle.
          "const fromClientNode = () => createRequire(require.resolve('@kubernetes/client-node/package.json'));",
          `const load = () => (real ??= fromClientNode()(${module}));`,
          `module.exports = ${exports};`,
          `for (const name of ${JSON.stringify(names)})`,
          '  Object.defineProperty(module.exports, name, { enumerable: true, get: () => load()[name] });',
          '',
        ].join('\n'),
        resolveDir,
        loader: 'js',
      };
    });
  },
};
