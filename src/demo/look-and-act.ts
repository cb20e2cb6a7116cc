/**
 * The demo's "look and act" step, after the syncs: the on-call engineer never leaves Slack. `/sync checkout`
 * (examples/applications/checkout.yaml) succeeds but the app turns Degraded — its new Pod crash-loops — and the
 * #alerts notice shows the crashed Pod's last lines (the database password as ***); then `/sync resources checkout`
 * (the tree, Degraded first, a restart button per Deployment), `/sync logs checkout Deployment/checkout --previous`
 * (a snippet in the sync's thread, redacted) and a click on the restart button (a server-side apply by
 * wavesync-action, posted in the channel). Each step is printed and checked; the outcome is one row of the demo's
 * table.
 */
import type { Simulator } from '../../sim/index.js';
import type { Config } from '../config.js';
import { createSyncQueue } from '../queue/index.js';
import { RESTARTED_AT_ANNOTATION } from '../resource-actions/index.js';
import type { Block } from '../slack/messages/block.js';
import { renderBlocksAsText } from '../slack/messages/render-blocks-as-text.js';
import { RESOURCE_ACTION_ID } from '../slack/messages/resource-tree-blocks.js';
import type { DemoOutcome } from './check-outcomes.js';
import { ALERTS_CHANNEL, DEMO_USERS } from './demo-scenario.js';
import type { FakeMessage, FakeSlackApi } from './fake-slack/fake-slack-api.js';
import type { SlackSender } from './fake-slack/slack-client.js';
import { TERMINAL_COLUMNS, wrapText } from './terminal-text.js';

export const LOOK_AND_ACT = {
  application: 'checkout',
  channel: 'C0CHECKOUT',
  /** The Secret value the crashing container logs (examples/manifests/checkout/db-secret.yaml). */
  secret: 'demo-db-pa55word',
} as const;

export interface LookAndActInput {
  client: SlackSender;
  slack: FakeSlackApi;
  sim: Pick<Simulator, 'get'>;
  config: Config;
  say(text: string): void;
  ansi: boolean;
  timeoutMs: number;
}

const USERS = Object.fromEntries(Object.values(DEMO_USERS).map((u) => [u.id, u.name]));

export async function lookAndAct(input: LookAndActInput): Promise<DemoOutcome> {
  const { client, slack, say } = input;
  const { application, channel } = LOOK_AND_ACT;
  const started = performance.now();
  const problems: string[] = [];
  const deadline = Date.now() + input.timeoutMs;
  const remaining = () => Math.max(1000, deadline - Date.now());
  const user = { userId: DEMO_USERS.requester.id, userName: DEMO_USERS.requester.name, channelId: channel };
  const show = (title: string, blocks: readonly unknown[]) => {
    const text = renderBlocksAsText(blocks as Block[], { ansi: input.ansi, users: USERS, indent: '  │ ' })
      .split('\n')
      .map((line) => wrapText(line, TERMINAL_COLUMNS, '  │   '))
      .join('\n');
    say(`\n${title}\n${text}\n`);
  };
  /** `/sync <text>` as @pat in #checkout; resolves with what the bot answered through the response_url. */
  const command = async (text: string) => {
    say(`\n@${DEMO_USERS.requester.name} in #${application}: /sync ${text}\n`);
    // Answers go to the channel's response_url, so the live printer labels them #checkout.
    const before = slack.responseUrlPosts(channel).length;
    const delivery = await client.sendCommand({ text, ...user, responseUrl: slack.responseUrl(channel) });
    if (delivery.status !== 200) throw new Error(`/sync ${text} answered HTTP ${delivery.status}`);
    const reply = await slack.waitFor(() => slack.responseUrlPosts(channel)[before], remaining());
    return { ackMs: delivery.ackMs, body: reply.body as { blocks?: unknown[]; response_type?: string } };
  };

  let phase: DemoOutcome['phase'] = 'timed out';
  let ackMs = Number.NaN;
  try {
    // 1. The sync succeeds; the app turns Degraded and #alerts is told, with the crashed Pod's last lines.
    say(`\n@${DEMO_USERS.requester.name} in #${application}: /sync ${application}\n`);
    say(
      `${wrapText('look and act: checkout 1.4.0 cannot reach its database — the sync succeeds, the app turns Degraded; find out why and restart it without leaving Slack', TERMINAL_COLUMNS, '  ')}\n`,
    );
    const sync = await client.sendCommand({
      text: application,
      ...user,
      channelName: application,
      responseUrl: slack.responseUrl(channel),
    });
    ackMs = sync.ackMs;
    const finished = await finishedPhase(input.config, application, deadline);
    phase = finished ?? 'timed out';
    if (finished !== 'Succeeded') problems.push(`the sync ended ${finished ?? 'not within the time limit'}`);
    const alert = await slack
      .waitFor(() => degradedNotice(slack.channelMessages(ALERTS_CHANNEL)), remaining())
      .catch(() => undefined);
    if (!alert) problems.push('no Degraded notice about checkout in #alerts');
    else {
      show('#alerts got the Degraded notice, with the crashed Pod’s last lines:', alert.blocks);
      problems.push(...redactionProblems('the Degraded notice', JSON.stringify(alert.blocks)));
    }

    // 2. The resource tree: Degraded first, with its message and a restart button.
    const tree = await command(`resources ${application}`);
    show(
      `${application} resources, in full (only @${DEMO_USERS.requester.name} sees them):`,
      tree.body.blocks ?? [],
    );
    const treeText = renderBlocksAsText((tree.body.blocks ?? []) as Block[]);
    if (!/Deployment\/checkout · Degraded/.test(treeText))
      problems.push('/sync resources did not show Deployment/checkout Degraded');

    // 3. The crashed instance's logs, as a snippet in the app's sync thread.
    const filesBefore = slack.files().length;
    const logs = await command(`logs ${application} Deployment/checkout --previous --tail 20`);
    if (logs.body.response_type !== 'ephemeral') problems.push('/sync logs answered in the channel');
    const file = await slack
      .waitFor(() => slack.files().slice(filesBefore)[0], remaining())
      .catch(() => undefined);
    if (!file) problems.push('/sync logs shared no snippet');
    else {
      say(
        `\n📎 ${file.filename}, in the sync's thread (all of #${application} sees it):\n${file.content
          .trimEnd()
          .split('\n')
          .map((l) => wrapText(`  │ ${l}`, TERMINAL_COLUMNS, '  │   '))
          .join('\n')}\n`,
      );
      problems.push(...redactionProblems('the logs snippet', file.content));
      if (!file.content.includes('FATAL could not connect'))
        problems.push('the logs snippet misses the crash');
    }

    // 4. Restart from the resource tree's button: a server-side apply of the restart annotation.
    const restart = buttonsOf(tree.body.blocks ?? []).find(
      (b) => b.action_id === RESOURCE_ACTION_ID && b.value?.includes('Deployment/checkout'),
    );
    if (!restart?.value) problems.push('the resource tree offers no restart for Deployment/checkout');
    else {
      say(`\n@${DEMO_USERS.requester.name} clicks restart on Deployment/checkout\n`);
      const before = slack.responseUrlPosts(channel).length;
      await client.sendBlockAction({
        actionId: RESOURCE_ACTION_ID,
        value: restart.value,
        ...user,
        messageTs: String(Date.now() / 1000),
        responseUrl: slack.responseUrl(channel),
      });
      const done = await slack
        .waitFor(() => slack.responseUrlPosts(channel)[before], remaining())
        .catch(() => undefined);
      const annotations = (
        input.sim.get({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout', namespace: 'checkout' })
          ?.spec as { template?: { metadata?: { annotations?: Record<string, string> } } } | undefined
      )?.template?.metadata?.annotations;
      if ((done?.body as { response_type?: string } | undefined)?.response_type !== 'in_channel')
        problems.push('the restart was not posted in the channel');
      if (!annotations?.[RESTARTED_AT_ANNOTATION])
        problems.push(`the Deployment has no ${RESTARTED_AT_ANNOTATION} after the restart`);
    }
  } catch (error) {
    problems.push((error as Error).message);
  }
  return {
    application: `${application} (look & act)`,
    expected: 'Succeeded',
    phase,
    ackMs,
    waves: 1,
    hooks: 0,
    durationMs: performance.now() - started,
    slackCalls: slack.calls().filter((c) => c.args.channel === channel || c.args.channel_id === channel)
      .length,
    problems,
    ok: problems.length === 0,
  };
}

/** The Secret's value must not appear; `***` must (the crash logs the password). */
function redactionProblems(where: string, text: string): string[] {
  const out: string[] = [];
  if (text.includes(LOOK_AND_ACT.secret)) out.push(`${where} shows the Secret's value`);
  if (!text.includes('***')) out.push(`${where} does not show the redacted password (***)`);
  return out;
}

function degradedNotice(messages: readonly FakeMessage[]): FakeMessage | undefined {
  return messages.find(
    (m) => m.text.includes(LOOK_AND_ACT.application) && m.text.includes('Degraded') && m.blocks.length > 0,
  );
}

function buttonsOf(blocks: readonly unknown[]): { action_id?: string; value?: string }[] {
  return (blocks as { type?: string; elements?: { action_id?: string; value?: string }[] }[]).flatMap((b) =>
    b.type === 'actions' ? (b.elements ?? []) : [],
  );
}

/** The phase the app's sync ended with (queue history), or undefined at the deadline. */
async function finishedPhase(
  config: Config,
  application: string,
  deadline: number,
): Promise<DemoOutcome['phase'] | undefined> {
  const queue = createSyncQueue({ connection: config.redis, prefix: config.queue.prefix });
  try {
    while (Date.now() < deadline) {
      const [entry] = await queue.history(application, 1);
      if (entry) return entry.phase;
      await new Promise((r) => setTimeout(r, 200));
    }
    return undefined;
  } finally {
    await queue.close();
  }
}
