/**
 * The dependency-cruiser rules that say who owns ports and who wires adapters (.dependency-cruiser.cjs), run on a
 * small tree written for the test: each bad import must be reported by its rule, and the allowed ones not at all.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../../../.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] };

const RULES = new Set([
  'features-own-their-ports',
  'only-entry-points-import-main',
  'folders-only-through-index',
  'environments-below-requests',
  'adapters-know-no-slack-or-wiring',
]);

/** Source files of the tree: path → content. */
const tree: Record<string, string> = {
  'src/main/start-bot.ts': "import { planner } from '../slack/ports.js';\nexport const startBot = planner;\n",
  'src/slack/ports.ts': "import { plan } from '../deletion/index.js';\nexport const planner = plan;\n",
  'src/deletion/index.ts': "export * from './plan.js';\n",
  'src/deletion/plan.ts': 'export const plan = 1;\n',
  'src/drift/index.ts': "export * from './detector.js';\n",
  'src/drift/detector.ts': 'export const detector = 1;\n',
  'src/cli/main.ts': "import { startBot } from '../main/start-bot.js';\nexport const run = startBot;\n",
  'src/demo/run-demo.ts': "import { startBot } from '../main/start-bot.js';\nexport const demo = startBot;\n",
  // Bad imports, one per line of the expectation below.
  'src/drift/slack-type.ts':
    "import type { WebClient } from '@slack/web-api';\nexport type Client = WebClient;\n",
  'src/drift/slack-port.ts': "import { planner } from '../slack/ports.js';\nexport const p = planner;\n",
  'src/kube/wiring.ts': "import { startBot } from '../main/start-bot.js';\nexport const k = startBot;\n",
  'src/queue/entry.ts': "import { run } from '../cli/main.js';\nexport const q = run;\n",
  'src/ops/demo.ts': "import { demo } from '../demo/run-demo.js';\nexport const o = demo;\n",
  'src/slack/wiring.ts': "import { startBot } from '../main/start-bot.js';\nexport const s = startBot;\n",
  'src/slack/internals.ts': "import { detector } from '../drift/detector.js';\nexport const d = detector;\n",
  'src/queue/index.ts': "export * from './store/keys.js';\n",
  'src/queue/store/keys.ts': 'export const keys = 1;\n',
  'src/queue/line.ts': "import { keys } from './store/keys.js';\nexport const line = keys;\n",
  'src/requests/index.ts': "import { keys } from '../queue/index.js';\nexport const request = keys;\n",
  'src/app-of-apps/store.ts': "import { keys } from '../queue/store/keys.js';\nexport const store = keys;\n",
  'src/kube/cluster.ts': 'export const cluster = 1;\n',
  'src/drift/cluster.ts': "import { cluster } from '../kube/cluster.js';\nexport const c = cluster;\n",
  'src/config.ts': "import { keys } from './queue/store/keys.js';\nexport const config = keys;\n",
  'src/environments/gate.ts':
    "import { request } from '../requests/index.js';\nexport const gate = request;\n",
  // The request path's owner entry points (request-origins-only-from-their-owner): allowed from their owner only.
  'src/requests/for-drift.ts': "import { request } from './index.js';\nexport const selfHeal = request;\n",
  'src/requests/for-app-of-apps.ts': "import { request } from './index.js';\nexport const child = request;\n",
  'src/drift/self-heal-sync.ts':
    "import { selfHeal } from '../requests/for-drift.js';\nexport const s = selfHeal;\n",
  'src/app-of-apps/driver.ts':
    "import { child } from '../requests/for-app-of-apps.js';\nexport const c = child;\n",
  'src/slack/sync-command.ts': "import { request } from '../requests/index.js';\nexport const r = request;\n",
  // The reviewer's probe, as an import: a Slack action queueing an App of Apps child with no check.
  'src/slack/actions/probe.ts':
    "import { child } from '../../requests/for-app-of-apps.js';\nexport const p = child;\n",
  'src/drift/child.ts': "import { child } from '../requests/for-app-of-apps.js';\nexport const d = child;\n",
  'sim/self-heal.ts':
    "import { selfHeal } from '../src/requests/for-drift.js';\nexport const m = selfHeal;\n",
  // The reviewer's second probe: the owner passes its entry point on through its barrel, and slack/ uses it.
  'src/app-of-apps/index.ts': "export { child } from '../requests/for-app-of-apps.js';\n",
  'src/slack/actions/via-barrel.ts':
    "import { child } from '../../app-of-apps/index.js';\nexport const v = child;\n",
  'src/requests/request-sync.ts': 'export const anyOrigin = 1;\n',
  'src/drift/passes-on.ts': "export { selfHeal as s2 } from '../requests/for-drift.js';\n",
  // Allowed: src/requests' own barrel re-exports its files; an owner re-exports the public barrel.
  'src/requests/barrel.ts': "export { anyOrigin } from './request-sync.js';\n",
  // The sync's thread: a feature room with its own Redis stores; it codes against its chat port, never src/slack/.
  'src/thread/index.ts': "export * from './redis-thread-outbox.js';\n",
  'src/thread/redis-thread-outbox.ts':
    "import { keys } from '../queue/index.js';\nexport const outbox = keys;\n",
  'src/thread/slack-poster.ts':
    "import { planner } from '../slack/ports.js';\nexport const poster = planner;\n",
  'src/thread/slack-client.ts':
    "import type { WebClient } from '@slack/web-api';\nexport type Client = WebClient;\n",
  // src/slack/ holds no Redis: neither a client nor a store module (its own or a feature's); a face is fine.
  'src/slack/replays.ts': "import { Redis } from 'ioredis';\nexport const r = Redis;\n",
  'src/slack/jobs.ts': "import { Queue } from 'bullmq';\nexport const q = Queue;\n",
  'src/slack/journal.ts': "import { keys } from '../queue/store/keys.js';\nexport const j = keys;\n",
  'src/slack/outbox.ts':
    "import { outbox } from '../thread/redis-thread-outbox.js';\nexport const o = outbox;\n",
  'src/slack/thread-face.ts': "import { outbox } from '../thread/index.js';\nexport const f = outbox;\n",

  'src/drift/public.ts': "export { request } from '../requests/index.js';\n",
};

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-layering-'));
  for (const [file, content] of Object.entries(tree)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The tree's violations of `rules` (names), cruising `roots`: `rule: from → to`, sorted. */
async function violationsOf(rules: ReadonlySet<string>, roots: string[]): Promise<string[]> {
  const result = await cruise(roots, {
    ruleSet: { forbidden: config.forbidden.filter((r) => rules.has(r.name ?? '')) },
    validate: true,
    tsPreCompilationDeps: true,
    baseDir: dir,
  });
  const output = result.output as Exclude<typeof result.output, string>;
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe('layering rules: features own their ports, main/ wires', () => {
  it('reports each bad import under its rule and nothing else', async () => {
    const violations = await violationsOf(RULES, ['src']);

    expect(violations).toEqual(
      [
        'features-own-their-ports: src/drift/slack-type.ts → @slack/web-api',
        'features-own-their-ports: src/drift/slack-port.ts → src/slack/ports.ts',
        'adapters-know-no-slack-or-wiring: src/kube/wiring.ts → src/main/start-bot.ts',
        'features-own-their-ports: src/drift/cluster.ts → src/kube/cluster.ts',
        'folders-only-through-index: src/config.ts → src/queue/store/keys.ts',
        'features-own-their-ports: src/queue/entry.ts → src/cli/main.ts',
        'adapters-know-no-slack-or-wiring: src/ops/demo.ts → src/demo/run-demo.ts',
        'only-entry-points-import-main: src/kube/wiring.ts → src/main/start-bot.ts',
        'only-entry-points-import-main: src/slack/wiring.ts → src/main/start-bot.ts',
        'folders-only-through-index: src/slack/internals.ts → src/drift/detector.ts',
        'folders-only-through-index: src/app-of-apps/store.ts → src/queue/store/keys.ts',
        'environments-below-requests: src/environments/gate.ts → src/requests/index.ts',
        'features-own-their-ports: src/thread/slack-poster.ts → src/slack/ports.ts',
        'features-own-their-ports: src/thread/slack-client.ts → @slack/web-api',
        'folders-only-through-index: src/slack/journal.ts → src/queue/store/keys.ts',
        'folders-only-through-index: src/slack/outbox.ts → src/thread/redis-thread-outbox.ts',
      ].sort(),
    );
  });
});

describe('layering rules: a sync with another origin than person is requested only by its owner', () => {
  it("src/requests/for-<folder>.ts is imported from src/<folder>/ only (the reviewer's probe included)", async () => {
    const rule = 'request-origins-only-from-their-owner';
    const violations = await violationsOf(new Set([rule]), ['src', 'sim']);

    expect(violations).toEqual(
      [
        `${rule}: src/slack/actions/probe.ts → src/requests/for-app-of-apps.ts`,
        `${rule}: src/drift/child.ts → src/requests/for-app-of-apps.ts`,
        `${rule}: sim/self-heal.ts → src/requests/for-drift.ts`,
      ].sort(),
    );
  });
});

describe("layering rules: an owner's entry point is not passed on", () => {
  it('src/requests/for-*.ts is re-exported from inside src/requests only (not even by its owner)', async () => {
    const rule = 'request-entry-points-not-passed-on';
    const violations = await violationsOf(new Set([rule]), ['src', 'sim']);

    expect(violations).toEqual(
      [
        `${rule}: src/app-of-apps/index.ts → src/requests/for-app-of-apps.ts`,
        `${rule}: src/drift/passes-on.ts → src/requests/for-drift.ts`,
      ].sort(),
    );
  });
});

describe('layering rules: src/slack/ holds no Redis', () => {
  it('a Redis client or a Redis store module imported from src/slack/ is reported; a folder face is not', async () => {
    const rule = 'slack-holds-no-redis';
    const violations = await violationsOf(new Set([rule]), ['src']);

    expect(violations).toEqual(
      [
        `${rule}: src/slack/replays.ts → ioredis`,
        `${rule}: src/slack/jobs.ts → bullmq`,
        `${rule}: src/slack/journal.ts → src/queue/store/keys.ts`,
        `${rule}: src/slack/outbox.ts → src/thread/redis-thread-outbox.ts`,
      ].sort(),
    );
  });
});
