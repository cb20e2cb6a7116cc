/**
 * Promotion end to end (issue 34), through the composition root (`startWavesync('serve')`: bot, worker and the
 * promotion verifier), signed Slack requests, the fake Slack Web API, the Kubernetes API simulator over HTTP, the
 * real BullMQ queue on the real Redis, and a real git repository served over file://. Nothing is mocked. Staging
 * is verified after 3 s Synced and Healthy (`healthyForMinutes: 0.05`), looked at every second.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { PROMOTE_ACTION_ID } from '../../../src/slack/messages/pipeline-blocks.js';
import { waitFor } from '../../integration/support/queue-test-env.js';
import { createGitFixture, type GitFixture } from '../../support/git-fixture.js';
import {
  ephemeralTextsOf,
  type ServeStack,
  stagingApplicationYaml,
  startServeStack,
  webManifests,
} from '../support/serve-stack.js';

const CHANNEL = 'C0WEB';
const USERS = { U0PAT: 'pat', U0SAM: 'sam' } as const;
type UserId = keyof typeof USERS;

function settings(cacheDir: string): string {
  return `
applications:
  - directory: applications
defaults:
  healthTimeoutSeconds: 15
  gitCacheDir: ${cacheDir}
  driftDetection: { enabled: false }
environments:
  staging: {}
  production:
    requireApproval: true
    approvers: { users: [U0SAM] }
promotion:
  checkIntervalSeconds: 1
  pipelines:
    guestbook:
      stages: [gb-staging, gb-prod]
      verify: { healthyForMinutes: 0.05 }
    auto:
      stages: [auto-staging, auto-prod]
      verify: { healthyForMinutes: 0 }
`;
}

const manifests = webManifests;

let stack: ServeStack;
let git: GitFixture;

beforeAll(async () => {
  git = await createGitFixture();
  const gitSource = `{ repoURL: "${git.url}", path: web, targetRevision: main }`;
  stack = await startServeStack({
    settings: settings(path.join(git.root, 'cache')),
    users: USERS,
    files: {
      'applications/staging.yaml': stagingApplicationYaml('gb-staging', gitSource),
      'applications/prod.yaml': stagingApplicationYaml('gb-prod', gitSource).replace(
        'wavesync.io/environment: staging',
        'wavesync.io/environment: production',
      ),
      'applications/auto-staging.yaml': stagingApplicationYaml('auto-staging', gitSource),
      // Tracks main with automated sync and selfHeal, in an environment that allows it.
      'applications/auto-prod.yaml': stagingApplicationYaml('auto-prod', gitSource, {
        automated: true,
      }).replace('automated: { prune: true }', 'automated: { prune: true, selfHeal: true }'),
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await git?.cleanup();
});

const command = (text: string, userId: UserId = 'U0PAT') => stack.command(text, CHANNEL, userId);
const roots = () => stack.slack.channelMessages(CHANNEL).filter((m) => !m.threadTs);
const short = (sha: string) => sha.slice(0, 7);

/** The ephemeral replies sent to the response_url, as text, oldest first. */
const ephemeralTexts = () => ephemeralTextsOf(stack, CHANNEL);

/** Run `/sync <text>` and wait for the ephemeral reply that `match`es (replies come after the ack). */
async function reply(text: string, match: (t: string) => boolean, userId: UserId = 'U0PAT'): Promise<string> {
  const before = ephemeralTexts().length;
  await command(text, userId);
  return stack.slack.waitFor(() => ephemeralTexts().slice(before).find(match), 10_000);
}

/** Wait until `/sync pipeline <pipeline>` shows `stage` verified at `sha`. */
async function verified(stage: string, sha: string, pipeline = 'guestbook'): Promise<void> {
  await waitFor(
    async () => {
      const view = await reply(`pipeline ${pipeline}`, (t) => t.includes(`Pipeline ${pipeline}`));
      const line = view.split('\n').find((l) => l.includes(stage) && l.includes(short(sha)));
      return line?.includes('✅ verified');
    },
    30_000,
    `${stage} verified at ${short(sha)}`,
  );
}

const approvalsIn = () =>
  roots().filter((m) => JSON.stringify(m.blocks).includes(`"action_id":"${APPROVE_ACTION_ID}"`));

/** Sam approves the newest approval request; resolves with its text as the approvers saw it. */
async function approveNext(seen: Set<string>): Promise<string> {
  const message = await stack.slack.waitFor(() => approvalsIn().find((m) => !seen.has(m.ts)), 10_000);
  seen.add(message.ts);
  const shown = stack.text(CHANNEL, message.ts);
  const value = (message.blocks as { elements?: { action_id?: string; value?: string }[] }[])
    .flatMap((b) => b.elements ?? [])
    .find((e) => e.action_id === APPROVE_ACTION_ID)?.value;
  await stack.client.sendBlockAction({
    actionId: APPROVE_ACTION_ID,
    userId: 'U0SAM',
    userName: 'sam',
    channelId: CHANNEL,
    messageTs: message.ts,
    value: value ?? '',
    responseUrl: stack.slack.responseUrl(CHANNEL),
  });
  return shown;
}

async function liveVersion(namespace: string): Promise<string | undefined> {
  return (await stack.core.readNamespacedConfigMap({ name: 'web-config', namespace })).data?.version;
}

describe('test/e2e/chatops/promotion', () => {
  const approvals = new Set<string>();
  let first: string;
  let second: string;

  it('when staging synced a commit and stayed Healthy, then /sync promote syncs production to exactly that commit after approval, even after main moved, and pins it', async () => {
    first = await git.commit(manifests('1', 'nginx:1.25'), 'v1');
    await command('gb-staging');
    await stack.finished('gb-staging', 1);
    await verified('gb-staging', first);

    // main moves on: production must get what was verified, not the branch head.
    second = await git.commit(manifests('2', 'nginx:1.27'), 'v2');
    const ack = await command('promote guestbook');
    expect(ack).toContain(`Promotion of ${short(first)} from gb-staging to gb-prod`);
    expect(ack).toContain('Healthy in gb-staging for');
    expect(ack).toContain('It waits for approval');
    const approval = await approveNext(approvals);
    expect(approval).toContain('Promote to gb-prod');
    expect(approval).toContain(`Promotion of ${short(first)} from gb-staging (pipeline guestbook)`);
    expect(approval).toMatch(/✅ verified: Healthy in gb-staging for \d+ s/);
    expect(approval).toContain(`revision ${short(first)} (main)`);
    const [promoted] = await stack.finished('gb-prod', 1);
    expect(promoted).toMatchObject({
      phase: 'Succeeded',
      revision: first,
      promotion: { pipeline: 'guestbook', from: 'gb-staging', revision: first },
    });
    expect(await liveVersion('gb-prod')).toBe('1');

    const status = await reply('status gb-prod', (t) => t.includes('pinned'));
    expect(status).toContain(`pinned at ${short(first)} by promotion from gb-staging`);
    const history = await reply('history gb-prod', (t) => t.includes('syncs of gb-prod'));
    expect(history).toContain('promoted from gb-staging');
  }, 180_000);

  it('when a revision was never verified in staging, then /sync promote refuses it with why and queues nothing', async () => {
    const before = roots().length;
    const refused = await command(`promote guestbook --revision ${second}`);
    expect(refused).toContain(
      `${short(second)} was never verified in gb-staging (verified there: ${short(first)})`,
    );
    expect(refused).toContain('Nothing was queued.');
    expect(await command('promote guestbook --to gb-staging')).toContain(
      'gb-staging is the first stage of guestbook: nothing comes before it.',
    );
    expect(await command('promote nope')).toContain('No promotion pipeline named nope');
    expect(roots().length).toBe(before);
    expect(await stack.queue.history('gb-prod')).toHaveLength(1);
  });

  it('when the next verified commit is promoted and production is rolled back, then the rollback says which promotion it undoes', async () => {
    await command('gb-staging --revision main');
    await stack.finished('gb-staging', 2);
    await verified('gb-staging', second);
    const view = await reply('pipeline guestbook', (t) => t.includes('Pipeline guestbook'));
    expect(view).toContain(`waiting to be promoted: ${short(second)}`);
    // Each stage's live state against its own revision: both Healthy and Synced.
    expect(view.split('live: 💚 Healthy · Synced')).toHaveLength(3);
    expect(view).toContain(`pinned at ${short(first)} by promotion from gb-staging`);
    expect(view).toContain(`Promote ${short(second)} → gb-prod`);

    // The Promote button of the pipeline view runs the same path as /sync promote, for whoever clicks it.
    const post = stack.slack
      .responseUrlPosts(CHANNEL)
      .findLast((p) => JSON.stringify(p.body.blocks ?? []).includes(PROMOTE_ACTION_ID));
    const promote = ((post?.body.blocks ?? []) as { elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === PROMOTE_ACTION_ID);
    const clicked = await stack.client.sendBlockAction({
      actionId: PROMOTE_ACTION_ID,
      userId: 'U0PAT',
      userName: 'pat',
      channelId: CHANNEL,
      messageTs: '1700000000.000100',
      value: promote?.value ?? '',
      responseUrl: stack.slack.responseUrl(CHANNEL),
    });
    expect(clicked.status).toBe(200);
    await approveNext(approvals);
    const [promoted] = await stack.finished('gb-prod', 2);
    expect(promoted).toMatchObject({ id: 2, revision: second, promotion: { from: 'gb-staging' } });
    expect(await liveVersion('gb-prod')).toBe('2');

    await command('rollback gb-prod');
    const rollback = await approveNext(approvals);
    expect(rollback).toContain(
      `Rollback to ${short(first)} (#1), undoing the promotion of ${short(second)} from gb-staging (#2)`,
    );
    const [rolledBack] = await stack.finished('gb-prod', 3);
    expect(rolledBack).toMatchObject({
      revision: first,
      rollback: { id: 1, undoes: { id: 2, from: 'gb-staging' } },
    });
    expect(await liveVersion('gb-prod')).toBe('1');
    // A person's rollback releases the pin.
    const status = await reply('status gb-prod', (t) => t.includes('gb-prod'));
    expect(status).not.toContain('pinned');
  }, 180_000);

  it('when staging failed a commit, then promoting it is refused with why; --break-glass asks approval for it marked NOT verified and audits it', async () => {
    const bad = await git.commit(
      { 'web/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Bad_Name }\n' },
      'bad',
    );
    await command(`gb-staging --revision ${bad}`);
    const [failed] = await stack.finished('gb-staging', 3);
    expect(failed?.phase).not.toBe('Succeeded');
    const refused = await command('promote guestbook --to gb-prod');
    expect(refused).toContain(`${short(bad)} was not verified in gb-staging: the sync ended`);
    expect(refused).toContain('break glass: /sync promote guestbook --to gb-prod --break-glass "reason"');
    expect(await command('promote guestbook --to gb-prod --break-glass " "')).toContain(
      'Break glass needs a reason',
    );

    const ack = await command('promote guestbook --to gb-prod --break-glass "customer outage, fix is in it"');
    expect(ack).toContain(`Promotion of ${short(bad)} from gb-staging (⚠️ unverified) to gb-prod`);
    const message = await stack.slack.waitFor(
      () =>
        approvalsIn().find((m) => !approvals.has(m.ts) && stack.text(CHANNEL, m.ts).includes('NOT verified')),
      10_000,
    );
    expect(stack.text(CHANNEL, message.ts)).toContain('customer outage, fix is in it');
    const audit = await reply('audit gb-prod', (t) => t.includes('UNVERIFIED'), 'U0SAM');
    expect(audit).toContain('customer outage, fix is in it');
    expect(await stack.queue.history('gb-prod')).toHaveLength(3);
  }, 120_000);

  it('when a promoted stage tracks main with selfHeal and drifts, then drift detection heals it to the pinned commit, not the head of main', async () => {
    await command(`auto-staging --revision ${first}`);
    await stack.finished('auto-staging', 1);
    await verified('auto-staging', first, 'auto');
    await command('promote auto');
    const [promoted] = await stack.finished('auto-prod', 1);
    expect(promoted).toMatchObject({
      phase: 'Succeeded',
      revision: first,
      promotion: { from: 'auto-staging' },
    });
    expect(await liveVersion('auto-prod')).toBe('1');

    // Drift out of band; main's head (the bad commit) must not be what heals it.
    const live = await stack.core.readNamespacedConfigMap({ name: 'web-config', namespace: 'auto-prod' });
    live.data = { version: 'edited' };
    await stack.core.replaceNamespacedConfigMap({ name: 'web-config', namespace: 'auto-prod', body: live });
    await stack.serve.drift?.tick();
    const [healed] = await stack.finished('auto-prod', 2);
    expect(healed).toMatchObject({
      phase: 'Succeeded',
      revision: first,
      initiator: { userId: 'wavesync (selfHeal)' },
    });
    expect(await liveVersion('auto-prod')).toBe('1');
    const status = await reply('status auto-prod', (t) => t.includes('pinned'));
    expect(status).toContain(`pinned at ${short(first)} by promotion from auto-staging`);
  }, 120_000);
});
