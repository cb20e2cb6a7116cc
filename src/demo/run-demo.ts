/**
 * runDemo — `wavesync demo`: the main job end to end on the embedded default. Starts the simulator and the fake
 * Slack, runs the real `serve` process (Bolt bot + BullMQ worker) in this process on the Redis at REDIS_URL
 * (its own key prefix, removed at the end), sends a signed `/sync <app>` per example Application through the real
 * HTTP endpoint, prints each Slack thread live as Slack would show it, then checks every outcome: the operation
 * phase, the thread's replies, and that the cluster holds the manifests. Resolves with the exit code (0 only
 * when every expected outcome happened).
 */
import { loadConfig } from '../config.js';
import { BotError } from '../domain/index.js';
import { didYouMean } from '../engine/index.js';
import { createLogger } from '../logger.js';
import { startWavesync } from '../main/start-wavesync.js';
import { describeRedis } from '../queue/index.js';
import type { Block } from '../slack/messages/block.js';
import { renderBlocksAsText } from '../slack/messages/render-blocks-as-text.js';
import { approveAs } from './approve-as.js';
import { checkOutcomes, type DemoOutcome } from './check-outcomes.js';
import { pingRedis, redisHelp } from './check-redis.js';
import { startDemoEnvironment } from './demo-environment.js';
import { ALERTS_CHANNEL, DEMO_APPS, DEMO_USERS, type DemoApp } from './demo-scenario.js';
import type { FakeSlackApi } from './fake-slack/fake-slack-api.js';
import { SignedSlackClient, type SlackSender } from './fake-slack/slack-client.js';
import { hasKustomizeRenderer } from './has-kustomize-renderer.js';
import { LOOK_AND_ACT, lookAndAct } from './look-and-act.js';
import { outcomeTable } from './outcome-table.js';
import { removeRedisPrefix } from './remove-redis-prefix.js';
import { TERMINAL_COLUMNS, wrapText } from './terminal-text.js';
import { ThreadPrinter } from './thread-printer.js';

export interface DemoOptions {
  /** The REDIS_* variables (config.ts redisVariables): one server, Sentinel or Cluster. */
  redisEnv: Record<string, string>;
  write(text: string): void;
  ansi: boolean;
  /** Keep the temporary folder (kubeconfig, log) for inspection. */
  keep?: boolean;
  /** Give up waiting for outcomes after this long (ms, default 50 000). */
  timeoutMs?: number;
  /** Run only this scenario (a DEMO_APPS application name). */
  app?: string;
  /** The bot in Socket Mode: commands and clicks over the fake Slack's WebSocket instead of signed HTTP. */
  socketMode?: boolean;
}

export async function runDemo(options: DemoOptions): Promise<number> {
  const started = performance.now();
  const selected = selectScenario(options.app);
  const redis = loadConfig(options.redisEnv).redis;
  try {
    await pingRedis(redis);
  } catch (error) {
    options.write(`${redisHelp(describeRedis(redis), (error as Error).message)}\n`);
    return 1;
  }
  const demo = await startDemo(options, selected);
  // Ctrl-C: stop the processes and remove the demo's Redis keys before exiting.
  const onInterrupt = () => void demo.cleanUp().finally(() => process.exit(130));
  process.once('SIGINT', onInterrupt);
  let outcomes: DemoOutcome[] = [];
  try {
    const { env, port, apps } = demo;
    const client: SlackSender =
      env.slack.socketMode ?? new SignedSlackClient(`http://127.0.0.1:${port}`, env.signingSecret);
    const acks = await sendSyncCommands(client, apps, env.slack.responseUrl.bind(env.slack), demo.say);
    await grantApprovals(client, env.slack, apps, demo.say, options.ansi);
    outcomes = await checkOutcomes({ apps, env, acks, timeoutMs: options.timeoutMs ?? 50_000 });
    // After the syncs: a Degraded app looked at and restarted from Slack (its own step, look-and-act.ts).
    if (options.app === undefined || options.app === LOOK_AND_ACT.application) {
      outcomes.push(
        await lookAndAct({
          client,
          slack: env.slack,
          sim: env.sim,
          config: env.config,
          say: demo.say,
          ansi: options.ansi,
          timeoutMs: options.timeoutMs ?? 50_000,
        }),
      );
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    await demo.cleanUp();
  }
  const elapsedMs = performance.now() - started;
  return printSummary(options, outcomes, elapsedMs, demo.env.logFile, options.keep ?? false);
}

/**
 * The scenarios to run: all of DEMO_APPS, or the one named. @throws BotError('application_not_found') naming
 * the scenarios, with the closest one.
 */
function selectScenario(name: string | undefined): readonly DemoApp[] {
  if (name === undefined) return DEMO_APPS;
  // The look-and-act step alone (it syncs its own app).
  if (name === LOOK_AND_ACT.application) return [];
  const app = DEMO_APPS.find((a) => a.application === name);
  if (app) return [app];
  const names = [...DEMO_APPS.map((a) => a.application), LOOK_AND_ACT.application];
  throw new BotError('application_not_found', `no demo scenario named "${name}"${didYouMean(name, names)}`, {
    fix: `use one of ${names.join(', ')}`,
  });
}

/** The environment, wavesync serve in this process, and the live thread printer; cleanUp() undoes it all once. */
async function startDemo(options: DemoOptions, scenarios: readonly DemoApp[]) {
  const env = await startDemoEnvironment({
    redisEnv: options.redisEnv,
    logLevel: 'info',
    socketMode: options.socketMode ?? false,
  });
  const logger = createLogger({ level: 'info', destination: env.log });
  const running = await startWavesync('serve', { config: env.config, logger, host: '127.0.0.1' });
  const apps = await selectApps(options, scenarios);
  const printer = new ThreadPrinter(env.slack, {
    labels: {
      ...Object.fromEntries(DEMO_APPS.map((a) => [a.channel, a.application])),
      [LOOK_AND_ACT.channel]: LOOK_AND_ACT.application,
      [ALERTS_CHANNEL]: '#alerts',
    },
    users: Object.fromEntries(Object.values(DEMO_USERS).map((u) => [u.id, u.name])),
    write: options.write,
    ansi: options.ansi,
    width: TERMINAL_COLUMNS,
  });
  // What the demo itself says ("@sam clicks Approve") comes after every thread line recorded so far.
  const say = (text: string) => {
    printer.flush();
    options.write(text);
  };
  printIntro(options, env, running.port);
  printer.start();
  let cleaned: Promise<void> | undefined;
  const cleanUp = () => {
    cleaned ??= (async () => {
      printer.stop();
      await running.close({ graceMs: 2000 });
      await removeRedisPrefix(env.config.redis, env.config.queue.prefix).catch(() => 0);
      await env.close({ keep: options.keep ?? false });
    })();
    return cleaned;
  };
  return { env, port: running.port, apps, cleanUp, say };
}

async function selectApps(options: DemoOptions, scenarios: readonly DemoApp[]): Promise<DemoApp[]> {
  const kustomize = await hasKustomizeRenderer();
  return scenarios.filter((app) => {
    if (!app.needsKustomize || kustomize) return true;
    options.write(
      `note: skipping ${app.application}: it needs \`kustomize\` or \`kubectl\` on PATH to render\n`,
    );
    return false;
  });
}

function printIntro(
  options: DemoOptions,
  env: Awaited<ReturnType<typeof startDemoEnvironment>>,
  port: number,
) {
  const lines = [
    'wavesync demo — /sync in Slack → BullMQ on Redis → Argo CD-faithful sync → the Slack thread, here in the terminal',
    `  Kubernetes API simulator  ${env.sim.url} (time ×${env.sim.speed})`,
    `  fake Slack Web API        ${env.slack.apiUrl}`,
    `  Redis                     ${describeRedis(env.config.redis)} (key prefix ${env.config.queue.prefix}, removed at the end)`,
    env.slack.socketMode
      ? '  wavesync serve            Socket Mode: a WebSocket from apps.connections.open on the fake Slack'
      : `  wavesync serve            http://127.0.0.1:${port} (POST /slack/events, GET /healthz, GET /metrics)`,
  ];
  options.write(`${lines.map((l) => wrapText(l, TERMINAL_COLUMNS, '    ')).join('\n')}\n`);
}

/** Send one signed `/sync <app>` per app as @pat; resolves with each ack latency in ms. */
async function sendSyncCommands(
  client: SlackSender,
  apps: readonly DemoApp[],
  responseUrl: (id: string) => string,
  say: (text: string) => void,
): Promise<Map<string, number>> {
  const acks = new Map<string, number>();
  for (const app of apps) {
    say(`\n@${DEMO_USERS.requester.name} in #${app.application}: /sync ${app.application}\n`);
    say(`${wrapText(app.story, TERMINAL_COLUMNS, '  ')}\n`);
    const delivery = await client.sendCommand({
      text: app.application,
      channelId: app.channel,
      channelName: app.application,
      userId: DEMO_USERS.requester.id,
      userName: DEMO_USERS.requester.name,
      responseUrl: responseUrl(app.channel),
    });
    if (delivery.status !== 200) throw new Error(`/sync ${app.application} answered HTTP ${delivery.status}`);
    acks.set(app.application, delivery.ackMs);
  }
  return acks;
}

/** For each production app: wait for its approval request and approve it as the second user (@sam). */
async function grantApprovals(
  client: SlackSender,
  slack: FakeSlackApi,
  apps: readonly DemoApp[],
  say: (text: string) => void,
  ansi: boolean,
) {
  for (const app of apps.filter((a) => a.needsApproval)) {
    const approver = DEMO_USERS.approver;
    const delivery = await approveAs(slack, client, {
      channel: app.channel,
      user: approver,
      timeoutMs: 20_000,
      // The approval message as the approvers see it: plan, live diff (counts, changed fields) and buttons.
      onRequest: (blocks) => {
        const users = Object.fromEntries(Object.values(DEMO_USERS).map((u) => [u.id, u.name]));
        const text = renderBlocksAsText(blocks as Block[], { ansi, users, indent: '  │ ' })
          .split('\n')
          .map((line) => wrapText(line, TERMINAL_COLUMNS, '  │   '))
          .join('\n');
        say(`\n${app.application} approval request:\n${text}\n`);
      },
    });
    say(`\n@${approver.name} clicks Approve on ${app.application} (ack ${delivery.ackMs.toFixed(0)} ms)\n`);
    if (delivery.status !== 200)
      throw new Error(`Approve of ${app.application} answered HTTP ${delivery.status}`);
  }
}

function printSummary(
  options: DemoOptions,
  outcomes: readonly DemoOutcome[],
  elapsedMs: number,
  logFile: string,
  kept: boolean,
): number {
  const good = outcomes.filter((o) => o.ok).length;
  options.write(`\n${outcomeTable(outcomes)}`);
  for (const o of outcomes.filter((x) => x.problems.length > 0)) {
    options.write(
      `\n✗ ${o.application}:\n${o.problems.map((p) => wrapText(p, TERMINAL_COLUMNS, '    ')).join('\n')}\n`,
    );
  }
  const all = good === outcomes.length && outcomes.length > 0;
  options.write(
    `\ndemo ${all ? 'passed' : 'FAILED'}: ${good} of ${outcomes.length} as expected in ${(elapsedMs / 1000).toFixed(1)} s` +
      `${kept ? ` (logs: ${logFile})` : ''}\n`,
  );
  return all ? 0 : 1;
}
