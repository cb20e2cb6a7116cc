/**
 * Layering rules (docs/architecture.md). `npm run lint` fails on any violation.
 * The engine and the domain are pure: no Slack, BullMQ, Redis or logger implementation.
 * Feature folders own their ports; adapters (src/slack/, Redis stores) implement them; src/main/ wires them.
 */
const infra = '^(@slack/|bullmq|ioredis|pino|prom-client|@bull-board/)';

/**
 * The engine's folders, bottom to top ('.' is the engine root, src/engine/*.ts): each imports only folders before
 * it, so the engine's folder graph is a DAG (docs/architecture.md "The engine"). diff/ compares objects and
 * imports no other engine part; the root holds the shared vocabulary (SyncTask, Cluster port, SyncContext,
 * annotations, sync options, plan warnings); hooks/ knows hook annotations and the planner (plan/) reads them.
 */
const engineLayers = ['diff', '.', 'health', 'hooks', 'plan', 'steps', 'run'];
const engineFolder = (layer) => (layer === '.' ? '^src/engine/[^/]+$' : `^src/engine/${layer}/`);
const engineLayerRules = engineLayers.slice(0, -1).map((layer, i) => ({
  name: `engine-layers-${layer === '.' ? 'root' : layer}`,
  comment: `The engine's folders form a DAG (${engineLayers.join(' < ')}): nothing in ${layer}/ imports ${engineLayers.slice(i + 1).join('/, ')}/.`,
  severity: 'error',
  from: { path: engineFolder(layer), pathNot: '^src/engine/index\\.ts$' },
  to: { path: engineLayers.slice(i + 1).map(engineFolder) },
}));

module.exports = {
  forbidden: [
    {
      name: 'domain-imports-nothing',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', '^node:'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'engine-is-pure',
      comment:
        'The sync engine imports no Slack, BullMQ, Redis or logger implementation, and no adapter layer.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: {
        path: [
          '^src/(queue|slack|kube|main|cli|config|logger|applications|app-of-apps|appset-removal|deletion|drift|environments|promotion|requests|revisions|rollback|sync-run|ops|settings|demo|thread)',
          infra,
        ],
      },
    },
    {
      name: 'engine-only-through-index',
      comment:
        'Other folders reach the engine only through src/engine/index.ts, its one public face; what they need is exported there.',
      severity: 'error',
      from: { path: '^(src|sim)/', pathNot: '^src/engine/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/index\\.ts$' },
    },
    ...engineLayerRules,
    {
      name: 'engine-no-runtime-client-node',
      comment: 'The engine may use @kubernetes/client-node types only (import type).',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '@kubernetes/client-node', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'features-own-their-ports',
      comment:
        'Feature folders declare the ports they need (announcer, notices, stores, planner, cluster …) and import no ' +
        'adapter layer: no Slack code or type (src/slack/, @slack/*), no Kubernetes client adapter (src/kube/), no ' +
        'operator endpoints (src/ops/), no wiring (src/main/) and no process entry point (src/cli/, src/demo/). ' +
        'The adapters implement those ports; src/main/ chooses which. The files directly in src/ (config, logger, ' +
        "package-info) follow the same rule. So does the sync's thread (src/thread/): it codes against its chat and " +
        'presentation ports, which src/slack/ implements, and never imports src/slack/.',
      severity: 'error',
      from: {
        path: [
          '^src/(applications|app-of-apps|appset-removal|deletion|drift|environments|health-scripts|promotion|requests|revisions|rollback|sync-run|queue|settings|domain|engine|thread)/',
          '^src/[^/]+\\.ts$',
        ],
      },
      to: { path: ['^src/(slack|main|cli|demo|kube|ops)/', '(^|/)@slack/'] },
    },
    {
      name: 'adapters-know-no-slack-or-wiring',
      comment:
        'The Kubernetes adapter (src/kube/) and the operator endpoints (src/ops/) import no Slack code or type, no ' +
        'wiring and no process entry point: like the features, they are wired by src/main/.',
      severity: 'error',
      from: { path: '^src/(kube|ops)/' },
      to: { path: ['^src/(slack|main|cli|demo)/', '(^|/)@slack/'] },
    },
    {
      name: 'slack-holds-no-redis',
      comment:
        'src/slack/ is the Slack transport and presentation only (Bolt wiring, command parsing, actions, Block Kit ' +
        'builders, the chat port of src/thread/): it imports no Redis client (ioredis, bullmq) and no Redis store ' +
        "module — src/queue/store/ or a feature's redis-*.ts. Data it needs kept (replays, click claims, a thread's " +
        'lines) lives behind a store owned by the feature that owns the data, reached through its ports.',
      severity: 'error',
      from: { path: '^src/slack/' },
      to: {
        path: [
          '^(ioredis|bullmq)(/|$)',
          '(^|/)node_modules/(ioredis|bullmq)/',
          '^src/queue/store/',
          '^src/.*/redis-[^/]+\\.ts$',
        ],
      },
    },
    {
      name: 'only-entry-points-import-main',
      comment:
        'src/main/ is the composition root, the only folder that wires adapters to ports. Nothing imports it but ' +
        'itself and the folders that start processes (src/cli/, src/demo/).',
      severity: 'error',
      from: { pathNot: '^src/(main|cli|demo)/' },
      to: { path: '^src/main/' },
    },
    {
      name: 'folders-only-through-index',
      comment:
        'A folder with an index.ts (applications, app-of-apps, appset-removal, deletion, drift, domain, environments, health-scripts, resource-actions, ' +
        'promotion, requests, revisions, rollback, sync-run, queue, settings, thread; the engine has its own rule) is reached from other folders only through it: its public face, ' +
        'ports included, never its internals. Adapter folders (slack, kube, ops) and main/ have no such face. ' +
        "The one exception, src/requests/for-<folder>.ts, is its owner's alone (request-origins-only-from-their-owner). " +
        'src/applications/manifests/index.ts is a second, narrow face of applications/: the manifest loader alone, for ' +
        'commands that must start without git, Helm, ApplicationSets and the settings schemas (`wavesync sync <path>`); ' +
        "likewise src/health-scripts/argocd-cm-health-keys.ts for health-scripts/: the health keys of a cluster's argocd-cm, " +
        'read without the Lua VM and the settings schemas.',
      severity: 'error',
      from: { path: '^(src/[^/]+/|src/[^/]+\\.ts$|sim/)' },
      to: {
        path: '^src/(applications|app-of-apps|appset-removal|deletion|drift|domain|environments|health-scripts|resource-actions|promotion|requests|revisions|rollback|sync-run|queue|settings|thread)/',
        pathNot: [
          '^$1',
          '^src/[^/]+/index\\.ts$',
          '^src/requests/for-[^/]+\\.ts$',
          '^src/applications/manifests/index\\.ts$',
          '^src/health-scripts/argocd-cm-health-keys\\.ts$',
        ],
      },
    },
    {
      name: 'request-origins-only-from-their-owner',
      comment:
        "src/requests/index.ts offers everyone a person's request (authorize → approval → enqueue). A sync with any " +
        'other origin is requested only by the code that owns its authorization, through its own entry point ' +
        'src/requests/for-<folder>.ts, imported only from src/<folder>/: for-drift.ts (self-heal: the drift ' +
        "detector decided selfHealAllowed), for-app-of-apps.ts (a child inherits its parent's), for-revisions.ts (automated: the revision watcher decided the Application's automated policy allows it), " +
        "for-appset-removal.ts (an ApplicationSet's removal policy deletes what it no longer generates) and for-main.ts (the " +
        "worker's wiring hands `retry` to src/queue's retry policy as its port). Each file holds its origin's whole path. `approved` has " +
        'no entry point outside src/requests (createApprovalServices wires it to the approval flow). The group ' +
        "is the importer's folder under src/ (sim/ and src/*.ts match none).",
      severity: 'error',
      from: { path: '^(?:src/)?([^/]+)/', pathNot: '^src/requests/' },
      to: { path: '^src/requests/for-', pathNot: '^src/requests/for-$1\\.ts$' },
    },
    {
      name: 'request-entry-points-not-passed-on',
      comment:
        "The other half of request-origins-only-from-their-owner: an owner's entry point (src/requests/for-<folder>.ts) " +
        'is not re-exported outside src/requests: `export { requestChildSync } ' +
        "from '../requests/for-app-of-apps.js'` in src/app-of-apps/index.ts would hand the child origin to every " +
        'importer of that barrel, past request-origins-only-from-their-owner. Import it where it is used instead.',
      severity: 'error',
      from: { pathNot: '^src/requests/' },
      to: { path: '^src/requests/for-[^/]+\\.ts$', dependencyTypes: ['export'] },
    },
    {
      name: 'environments-below-requests',
      comment:
        'src/requests (requestSync: authorize → approval → enqueue) sits above src/environments (policy, approvals): ' +
        'the approval flow reaches the request path only through ports (ApprovalDeps.enqueueApproved).',
      severity: 'error',
      from: { path: '^src/environments/' },
      to: { path: '^src/requests/' },
    },
    {
      name: 'product-does-not-import-simulator',
      comment: 'The simulator is a test double and a demo cluster; only the CLI/demo wiring may start it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|demo)/' },
      to: { path: '^sim/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
