/**
 * Bounded under huge input (issue 29), with the real processes: `wavesync serve` as a child process (node
 * bin/wavesync.js, configured by environment only), the Kubernetes API simulator in a process of its own, the fake
 * Slack Web API and the signed-request client here, the real queue on the real Redis under a unique key prefix.
 * - An Application of BIG_OBJECTS ConfigMaps (default 10,000; `WAVESYNC_E2E_BIG_OBJECTS=20000` for the size the
 *   issue names: with serve's worker in its own thread the slowest answers were 124–169 ms at load 6–9, but one run
 *   of three gave 1,013 ms at load 7–13, so a flat 1 s at 20,000 is not robust on 2 shared cores: BENCHMARKS.md,
 *   "Bounded under huge input") syncs while
 *   `/healthz` is asked every 100 ms and another Application's `/sync` is sent every 2 s: every answer within 1 s,
 *   none lost. On a machine other work loads, any busy process may wait that long for a core: a control process
 *   that works in 20 ms pieces (control-http-process.ts) is asked alongside /healthz, and the bound is 1 s over the
 *   slowest answer it gave in the same run (on a quiet machine ~20 ms: the bound is the 1 s). Both figures
 *   are printed.
 * - `/sync cancel` while an Application renders (its git server accepts the connection and never answers; the
 *   render would wait 60 s for it) ends the sync within 10 s, and the header says who cancelled it.
 * - An Application over `defaults.applicationLimits.maxManifestBytes` is refused while it renders, naming its size,
 *   the limit and the setting; its namespace is never created.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../../../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient } from '../../../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../../../src/demo/remove-redis-prefix.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { type ControlHttpProcess, startControlHttpProcess } from '../support/control-http-process.js';
import { REDIS_URL } from '../support/e2e-stack.js';
import { stagingApplicationYaml } from '../support/serve-stack.js';
import { type SimProcess, startSimProcess } from '../support/sim-process.js';
import { startWavesyncProcess, type WavesyncProcess } from '../support/wavesync-process.js';

const BIG_OBJECTS = Number(process.env.WAVESYNC_E2E_BIG_OBJECTS ?? 10_000);
const USER = { id: 'U0PAT', name: 'pat' };
const LIMIT_BYTES = 4 * 1024 * 1024;

let dir: string;
let sim: SimProcess;
let slack: FakeSlackApi;
let serve: WavesyncProcess;
let client: SignedSlackClient;
let silent: Server;
let control: ControlHttpProcess;
const sockets: Socket[] = [];
const prefix = `wavesync-bounded-${randomUUID().slice(0, 8)}`;

function configMaps(count: number): string {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  index: "${i}"\n`);
  }
  return docs.join('---\n');
}

const local = (folder: string) => `{ repoURL: "", path: ${folder} }`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-bounded-'));
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port: silentPort } = silent.address() as AddressInfo;
  const files: Record<string, string> = {
    'wavesync.yaml': `applications:
  - directory: applications
defaults:
  gitRequestTimeoutSeconds: 60
  driftDetection: { enabled: false }
  applicationLimits: { maxObjects: ${BIG_OBJECTS}, maxManifestBytes: ${LIMIT_BYTES} }
environments:
  staging: {}
`,
    'applications/big.yaml': stagingApplicationYaml('big', local('manifests/big')),
    'applications/small.yaml': stagingApplicationYaml('small', local('manifests/small')),
    'applications/stuck.yaml': stagingApplicationYaml(
      'stuck',
      `{ repoURL: "http://127.0.0.1:${silentPort}/repo.git", path: web, targetRevision: main }`,
    ),
    'applications/huge.yaml': stagingApplicationYaml('huge', local('manifests/huge')),
    'manifests/big/all.yaml': configMaps(BIG_OBJECTS),
    'manifests/small/all.yaml': configMaps(1),
    // Over the byte limit: refused from its size, before it is read.
    'manifests/huge/all.yaml': `${'# padding\n'.repeat(LIMIT_BYTES / 10 + 1)}${configMaps(1)}`,
  };
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  const kubeconfig = path.join(dir, 'kubeconfig');
  [sim, slack, control] = await Promise.all([
    startSimProcess(kubeconfig, 20),
    FakeSlackApi.start({ postIntervalMs: 1, burst: 1000, users: [USER] }),
    startControlHttpProcess(),
  ]);
  const secret = randomUUID();
  serve = await startWavesyncProcess('serve', {
    REDIS_URL,
    PORT: '0',
    LOG_LEVEL: 'info',
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: secret,
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: kubeconfig,
    WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
  });
  client = new SignedSlackClient(`http://127.0.0.1:${serve.port}`, secret);
}, 120_000);

afterAll(async () => {
  await serve?.stop();
  await slack?.close();
  await sim?.stop();
  await control?.stop();
  for (const socket of sockets) socket.destroy();
  silent?.close();
  await removeRedisPrefix(REDIS_URL, prefix);
  await rm(dir, { recursive: true, force: true });
});

/** `/sync <text>` from `channel`; resolves with the ack latency in ms (fails on a non-200). */
async function command(text: string, channel: string): Promise<number> {
  const delivery = await client.sendCommand({
    text,
    userId: USER.id,
    userName: USER.name,
    channelId: channel,
    responseUrl: slack.responseUrl(channel),
  });
  if (delivery.status !== 200) throw new Error(`/sync ${text}: HTTP ${delivery.status} ${delivery.body}`);
  return delivery.ackMs;
}

/** The header (thread root) of `channel`'s first sync, as text; '' before it is posted. */
function header(channel: string): string {
  const root = slack.channelMessages(channel).find((m) => !m.threadTs);
  const blocks = (slack.message(channel, root?.ts ?? '')?.blocks ?? []) as Parameters<
    typeof renderBlocksAsText
  >[0];
  return renderBlocksAsText(blocks);
}

/** A header whose sync has ended. */
const ENDED = /Succeeded|Failed|Error|Cancelled/;

describe('test/e2e/bounded/big-application', () => {
  it(`when an Application of ${BIG_OBJECTS.toLocaleString('en')} ConfigMaps syncs, then /healthz and another Application's /sync ack answer within 1 s throughout`, async () => {
    const healthz: number[] = [];
    const controlAnswers: number[] = [];
    const acks: number[] = [await command('big', 'C0BIG')];
    let done = false;
    const probe = (async () => {
      while (!done) {
        const asked = (async () => {
          const started = performance.now();
          const response = await fetch(`http://127.0.0.1:${serve.port}/healthz`);
          await response.text();
          expect(response.status).toBe(200);
          return performance.now() - started;
        })();
        const [answered, controlAnswered] = await Promise.all([asked, control.latency()]);
        healthz.push(answered);
        controlAnswers.push(controlAnswered);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const others = (async () => {
      while (!done) {
        acks.push(await command('small', 'C0SMALL'));
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    })();
    try {
      await slack.waitFor(() => ENDED.test(header('C0BIG')), 400_000);
    } finally {
      done = true;
      await Promise.all([probe, others]);
    }

    expect(header('C0BIG')).toMatch(/^✅ big → staging {2}· {2}Succeeded/);
    expect(healthz.length).toBeGreaterThan(10);
    expect(acks.length).toBeGreaterThan(2);
    const machine = Math.max(...controlAnswers);
    const slowest = { healthz: Math.max(...healthz), ack: Math.max(...acks) };
    process.stdout.write(
      `big-application: ${healthz.length} /healthz answers, slowest ${slowest.healthz.toFixed(0)} ms; ${acks.length} acks, slowest ${slowest.ack.toFixed(0)} ms; the control process's slowest answer ${machine.toFixed(0)} ms\n`,
    );
    expect(slowest.healthz).toBeLessThan(1000 + machine);
    expect(slowest.ack).toBeLessThan(1000 + machine);
  }, 420_000);

  it('when /sync cancel is sent while an Application renders, then the sync ends within 10 s and the header says who cancelled it', async () => {
    const connections = sockets.length;
    await command('stuck', 'C0STUCK');
    // Rendering: git ls-remote has connected to the server that never answers.
    await slack.waitFor(() => sockets.length > connections, 30_000);
    const cancelled = performance.now();
    await command('cancel stuck "wrong branch"', 'C0STUCK');
    await slack.waitFor(() => ENDED.test(header('C0STUCK')), 10_000);

    expect(performance.now() - cancelled).toBeLessThan(10_000);
    expect(header('C0STUCK')).toMatch(
      /^🚫 stuck → staging {2}· {2}Cancelled by @U0PAT: wrong branch {2}· {2}Operation terminated/,
    );
  }, 60_000);

  it('when an Application is over the byte limit, then it is refused while rendering with its size, the limit and the setting, and nothing is applied', async () => {
    await command('huge', 'C0HUGE');
    await slack.waitFor(() => ENDED.test(header('C0HUGE')), 30_000);

    expect(header('C0HUGE')).toMatch(
      /^❌ huge → staging {2}· {2}Error {2}· {2}huge: its manifests are 4,194,\d{3} bytes \(4\.0 MiB\) \(1 file in .*\), more than the limit of 4,194,304 bytes \(4\.0 MiB\) per Application \(nothing was applied\): raise defaults\.applicationLimits\.maxManifestBytes in wavesync\.yaml, or split the Application/,
    );
    const kc = new KubeConfig();
    kc.loadFromFile(sim.kubeconfig);
    const namespaces = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).not.toContain('huge');
  }, 60_000);
});
