/**
 * The one door to @kubernetes/client-node 1.4.0: what wavesync uses of it, imported from the files that define it
 * rather than the package's index. The index loads the whole generated API (~800 modules, ~0.7 s of CPU at every
 * start); wavesync needs the KubeConfig (kubeconfig loading, TLS, credentials: token, token file, client
 * certificate, exec plugins, auth providers, proxies) and the ApiException — its requests and watches go through
 * KubeHttp and its discovery through KubeDiscovery.
 *
 * `npm run build` bundles this file with what it imports (scripts/bundle-client-node.mjs): client-node's config.js
 * takes only `createConfiguration` and `ServerConfiguration` from the generated index, so the bundle gives it those
 * two and leaves the ~800 generated models out. Under tsx (tests, a checkout without a build) the files load as
 * they are.
 */
export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
export type { User } from '@kubernetes/client-node/dist/config_types.js';
export { ApiException } from '@kubernetes/client-node/dist/gen/apis/exception.js';
