/**
 * Malformed-payload latency benchmark (issue 29: "malformed → 400 … within 100 ms"): how long `wavesync serve` takes
 * to answer each malformed Slack request of test/e2e/support/malformed-payloads.ts (each signed as Slack signs, so
 * the payload itself is judged), measured by the client from sending to the whole answer read.
 *
 * `wavesync serve` runs as an operator runs it (node bin/wavesync.js, its own process, the real Redis under a unique
 * prefix), the Kubernetes API simulator in another process; the fake Slack Web API and the signed client here. Each
 * round sends every case once, in order, then two baselines the same way: `GET /healthz` (the HTTP path alone) and a
 * well-formed `/sync help` (a command Bolt answers). ROUNDS rounds (default 20) after 3 warm-up rounds.
 * Printed: per case the median, 95th percentile and maximum, and the worst case over all malformed requests.
 * Run: `npx tsx bench/malformed-payload.bench.ts` (ROUNDS=5 for a quick one).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FakeSlackApi } from '../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient, slashCommandFields } from '../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../src/demo/remove-redis-prefix.js';
import { FORM, malformedPayloads } from '../test/e2e/support/malformed-payloads.js';
import { stagingApplicationYaml } from '../test/e2e/support/serve-stack.js';
import { startSimProcess } from '../test/e2e/support/sim-process.js';
import { startWavesyncProcess } from '../test/e2e/support/wavesync-process.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const WARM_UP = 3;
const CHANNEL = 'C0WEB';

const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-malformed-'));
const prefix = `wavesync-malformed-${randomUUID().slice(0, 8)}`;
await mkdir(path.join(dir, 'applications'));
await writeFile(
  path.join(dir, 'wavesync.yaml'),
  'applications:\n  - directory: applications\ndefaults:\n  driftDetection: { enabled: false }\nenvironments:\n  staging: {}\n',
);
await writeFile(
  path.join(dir, 'applications/web.yaml'),
  stagingApplicationYaml('web', '{ repoURL: "", path: web }'),
);
const sim = await startSimProcess(path.join(dir, 'kubeconfig'), 20);
const slack = await FakeSlackApi.start({
  postIntervalMs: 1,
  burst: 1000,
  users: [{ id: 'U0PAT', name: 'pat' }],
});
const secret = randomUUID();
const serve = await startWavesyncProcess('serve', {
  REDIS_URL,
  PORT: '0',
  LOG_LEVEL: 'info',
  SLACK_BOT_TOKEN: slack.botToken,
  SLACK_SIGNING_SECRET: secret,
  SLACK_API_URL: slack.apiUrl,
  KUBECONFIG: sim.kubeconfig,
  WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
  WAVESYNC_QUEUE_PREFIX: prefix,
});
const client = new SignedSlackClient(`http://127.0.0.1:${serve.port}`, secret);
const cases = malformedPayloads(CHANNEL, () => slack.responseUrl(CHANNEL));
let trigger = 0;
const baselines: [string, () => Promise<{ status: number; ackMs: number }>][] = [
  [
    'baseline: GET /healthz',
    async () => {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${serve.port}/healthz`);
      await res.text();
      return { status: res.status, ackMs: performance.now() - started };
    },
  ],
  [
    'baseline: well-formed /sync help',
    () =>
      client.sendRaw(
        new URLSearchParams(slashCommandFields({ text: 'help', channelId: CHANNEL }, ++trigger)).toString(),
        FORM,
      ),
  ],
];
const times = new Map<string, number[]>();
const loads: number[] = [];
try {
  for (let round = 0; round < WARM_UP + ROUNDS; round++) {
    const record = (name: string, ms: number) => {
      if (round >= WARM_UP) times.set(name, [...(times.get(name) ?? []), ms]);
    };
    for (const [name, body, contentType] of cases) {
      const answer = await client.sendRaw(body(), contentType);
      if (answer.status !== 400) throw new Error(`${name}: HTTP ${answer.status} ${answer.body}`);
      record(name, answer.ackMs);
    }
    for (const [name, send] of baselines) {
      const answer = await send();
      if (answer.status !== 200) throw new Error(`${name}: HTTP ${answer.status}`);
      record(name, answer.ackMs);
    }
    loads.push(loadavg()[0]!);
  }
} finally {
  await serve.stop();
  await slack.close();
  await sim.stop();
  await removeRedisPrefix(REDIS_URL, prefix);
  await rm(dir, { recursive: true, force: true });
}

/** Nearest-rank quantile of ascending `sorted`. */
const quantile = (sorted: number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
console.log(
  `malformed-payload bench: Node ${process.version}, ${ROUNDS} rounds, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
);
console.log('| request | median | p95 | max |');
console.log('|---|---|---|---|');
let worst = { name: '', ms: 0 };
for (const [name, ms] of times) {
  const sorted = [...ms].sort((a, b) => a - b);
  const max = sorted.at(-1)!;
  if (!name.startsWith('baseline') && max > worst.ms) worst = { name, ms: max };
  console.log(
    `| ${name} | ${quantile(sorted, 0.5).toFixed(1)} ms | ${quantile(sorted, 0.95).toFixed(1)} ms | ${max.toFixed(1)} ms |`,
  );
}
const all = [...times].filter(([name]) => !name.startsWith('baseline')).flatMap(([, ms]) => ms);
const sortedAll = all.sort((a, b) => a - b);
console.log(
  `\nall ${all.length} malformed requests: median ${quantile(sortedAll, 0.5).toFixed(1)} ms, p99 ${quantile(sortedAll, 0.99).toFixed(1)} ms, max ${worst.ms.toFixed(1)} ms (${worst.name})`,
);
