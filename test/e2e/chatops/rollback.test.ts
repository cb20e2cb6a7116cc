/**
 * Rollback from chat end to end (issue 17), through the composition root (`startWavesync('serve')`: bot + worker),
 * signed Slack requests to the bot, the fake Slack Web API, the Kubernetes API simulator over HTTP (client-node),
 * the real BullMQ queue on the real Redis, and a real git repository served over file://. Nothing is mocked.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { ROLLBACK_ACTION_ID } from '../../../src/slack/messages/rollback-button.js';
import { createGitFixture, type GitFixture } from '../../support/git-fixture.js';
import {
  ephemeralTextsOf,
  type ServeStack,
  stagingApplicationYaml,
  startServeStack,
  webManifests,
} from '../support/serve-stack.js';

const CHANNEL = 'C0WEB';
const USERS = { U0PAT: 'pat', U0LEE: 'lee', U0SAM: 'sam' } as const;
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
  staging:
    permissions:
      rollback: { users: [U0PAT] }
  canary:
    # The documented set-up: syncs only from the team's channel, failure notices in the alerts channel.
    channels: [C0WEB]
    notifications: { channel: C0ALERTS }
    permissions:
      rollback: { users: [U0PAT, U0SAM] }
  production:
    requireApproval: true
    approvers: { users: [U0SAM] }
`;
}

const manifests = webManifests;

let stack: ServeStack;
let git: GitFixture;
// The git cache is per test file: a scratch folder of the fixture's.
const cacheDir = () => path.join(git.root, 'cache');

beforeAll(async () => {
  git = await createGitFixture();
  const gitSource = `{ repoURL: "${git.url}", path: web, targetRevision: main }`;
  stack = await startServeStack({
    settings: settings(cacheDir()),
    users: USERS,
    files: {
      'applications/web.yaml': stagingApplicationYaml('web', gitSource),
      'applications/prod.yaml': stagingApplicationYaml('prod', gitSource).replace(
        'wavesync.io/environment: staging',
        'wavesync.io/environment: production',
      ),
      'applications/canary.yaml': stagingApplicationYaml('canary', gitSource).replace(
        'wavesync.io/environment: staging',
        'wavesync.io/environment: canary',
      ),
      'applications/auto.yaml': stagingApplicationYaml('auto', gitSource, { automated: true }),
      'applications/local.yaml': stagingApplicationYaml('local', '{ repoURL: "", path: local/web }'),
      'local/web/config.yaml': manifests('0', 'nginx:1.0')['web/config.yaml']!,
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await git?.cleanup();
});

const command = (text: string, userId: UserId = 'U0PAT') => stack.command(text, CHANNEL, userId);
const finished = (app: string, count: number) => stack.finished(app, count);
const text = (ts: string) => stack.text(CHANNEL, ts);
const roots = () => stack.slack.channelMessages(CHANNEL).filter((m) => !m.threadTs);

/** The ephemeral replies sent to the response_url, as text, oldest first. */
const ephemeralTexts = () => ephemeralTextsOf(stack, CHANNEL);

/** `userId` clicks the Roll back button of `message` in `channel` (a signed block_actions payload). */
function clickRollback(channel: string, message: { ts: string; blocks: unknown }, userId: UserId) {
  const value = (message.blocks as { elements?: { action_id?: string; value?: string }[] }[])
    .flatMap((b) => b.elements ?? [])
    .find((e) => e.action_id === ROLLBACK_ACTION_ID)?.value;
  return stack.client.sendBlockAction({
    actionId: ROLLBACK_ACTION_ID,
    userId,
    userName: USERS[userId],
    channelId: channel,
    messageTs: message.ts,
    value: value ?? '',
    responseUrl: stack.slack.responseUrl(channel),
  });
}

async function liveConfigVersion(): Promise<string | undefined> {
  return (await stack.core.readNamespacedConfigMap({ name: 'web-config', namespace: 'web' })).data?.version;
}
async function liveImage(): Promise<string | undefined> {
  const deployment = await stack.apps.readNamespacedDeployment({ name: 'web', namespace: 'web' });
  return deployment.spec?.template.spec?.containers[0]?.image;
}

describe('test/e2e/chatops/rollback', () => {
  let first: string;
  let second: string;

  it('when two git revisions were synced, then /sync history shows ids and /sync rollback restores the old objects', async () => {
    first = await git.commit(manifests('1', 'nginx:1.25'), 'v1');
    await command('web');
    await finished('web', 1);
    second = await git.commit(manifests('2', 'nginx:1.27'), 'v2');
    // Another command than the first (the same one within 60 s is "Already requested").
    await command('web --revision main');
    const synced = await finished('web', 2);
    expect(synced.map((e) => [e.id, e.phase, e.revision])).toEqual([
      [2, 'Succeeded', second],
      [1, 'Succeeded', first],
    ]);
    expect(await liveConfigVersion()).toBe('2');

    await command('history web');
    const history = await stack.slack.waitFor(() =>
      ephemeralTexts().find((t) => t.startsWith('Last 2 syncs of web')),
    );
    expect(history).toContain(`#2 `);
    expect(history).toContain(`#1 `);
    expect(history).toContain(second.slice(0, 7));

    await command('rollback web');
    const [rollback] = await finished('web', 3);
    expect(rollback).toMatchObject({
      id: 3,
      phase: 'Succeeded',
      revision: first,
      rollback: { id: 1, revision: first },
    });
    expect(await liveConfigVersion()).toBe('1');
    expect(await liveImage()).toBe('nginx:1.25');
    // Each entry records the source as synced (Argo CD's RevisionHistory.source); the rollback synced #1's.
    const recorded = { repoURL: git.url, path: 'web', targetRevision: 'main' };
    const entries = await stack.queue.history('web');
    expect(entries.map((e) => e.source)).toEqual([recorded, recorded, recorded]);
    const job = await stack.queue.jobStatus(rollback!.jobId);
    expect(job?.operation.source).toEqual(recorded);
    const header = roots().find((m) => text(m.ts).includes('Rollback to'));
    expect(header && text(header.ts)).toContain(`Rollback to ${first.slice(0, 7)} (#1)`);
    expect(header && text(header.ts)).toContain('/sync rollback web 1');
  }, 120_000);

  it('when the app has automated sync or a local folder source, or the id is not a Succeeded entry, then the rollback is refused in an ephemeral reply', async () => {
    const before = roots().length;
    expect(await command('rollback auto')).toContain(
      'auto has automated sync (spec.syncPolicy.automated), so it cannot be rolled back',
    );
    expect(await command('rollback local')).toContain(
      'local is read from a local folder (empty repoURL), which has no revisions to roll back to',
    );
    expect(await command('rollback web 99')).toContain('History has no entry #99 (newest: #3, #2, #1)');
    expect(await command('rollback web 2 extra')).toContain('Too many words: extra.');
    expect(roots().length).toBe(before);
    expect(await stack.queue.history('auto')).toEqual([]);
  });

  it('when a sync fails, then its summary carries Roll back; only a user the rollback permission allows may use it, and it returns to the last good revision', async () => {
    const bad = await git.commit(
      { 'web/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Bad_Name }\n' },
      'bad',
    );
    // Another command than the first test's `/sync web` (the same one within 60 s is "Already requested").
    const ack = await command(`web --revision ${bad}`);
    const [failed] = await finished('web', 4).catch(async (err: Error) => {
      throw new Error(
        `${err.message}; ack: ${ack}; history: ${JSON.stringify(await stack.queue.history('web'))}`,
      );
    });
    expect(failed?.phase).not.toBe('Succeeded');
    const header = roots().find((m) => text(m.ts).includes(`/sync web --revision ${bad}`));
    expect(header).toBeDefined();
    const thread = stack.slack.thread(CHANNEL, header!.ts);
    const summary = thread.find((m) =>
      (m.blocks as { type: string; elements?: { action_id?: string }[] }[]).some((b) =>
        b.elements?.some((e) => e.action_id === ROLLBACK_ACTION_ID),
      ),
    );
    expect(summary, `no Roll back button in ${JSON.stringify(thread.map((m) => m.text))}`).toBeDefined();

    const click = (userId: UserId) => clickRollback(CHANNEL, summary!, userId);
    const rootsBefore = roots().length;
    await click('U0LEE');
    await stack.slack.waitFor(() => ephemeralTexts().some((t) => t.includes('🚫') && t.includes('roll')));
    expect(roots().length).toBe(rootsBefore);

    await click('U0PAT');
    const [rolledBack] = await finished('web', 5);
    // The newest Succeeded entry before the failure is #3 (the rollback to the first revision).
    expect(rolledBack).toMatchObject({ phase: 'Succeeded', rollback: { id: 3, revision: first } });
    expect(await liveConfigVersion()).toBe('1');
  }, 120_000);

  it('when the environment restricts channels, then the Roll back button of the failure notice in its notification channel works for a user the rollback permission names', async () => {
    const ALERTS = 'C0ALERTS';
    await command(`canary --revision ${first}`);
    await finished('canary', 1);
    const bad = await git.commit(
      { 'web/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Bad_Name2 }\n' },
      'bad again',
    );
    await command(`canary --revision ${bad}`);
    const [failed] = await finished('canary', 2);
    expect(failed?.phase).not.toBe('Succeeded');
    const notice = await stack.slack.waitFor(() =>
      stack.slack.channelMessages(ALERTS).find((m) => JSON.stringify(m.blocks).includes(ROLLBACK_ACTION_ID)),
    );
    const click = (userId: UserId) => clickRollback(ALERTS, notice, userId);
    const replies = () =>
      stack.slack.responseUrlPosts(ALERTS).map((p) => {
        const blocks = p.body.blocks as Parameters<typeof renderBlocksAsText>[0] | undefined;
        return blocks ? renderBlocksAsText(blocks) : String(p.body.text ?? '');
      });

    await click('U0LEE');
    expect(await stack.slack.waitFor(() => replies().find((t) => t.includes('🚫')))).toContain(
      'Only @U0PAT, @U0SAM may roll back canary (canary).',
    );

    // Two allowed users press Roll back at once: one rollback, and the second is told who started it.
    await Promise.all([click('U0PAT'), click('U0SAM')]);
    const [rolledBack] = await finished('canary', 3);
    expect(rolledBack).toMatchObject({ phase: 'Succeeded', rollback: { id: 1, revision: first } });
    const already = await stack.slack.waitFor(() => replies().find((t) => t.includes('already started')));
    expect(already).toMatch(
      new RegExp(
        `^@U0(PAT|SAM) already started Rollback to ${first.slice(0, 7)} \\(#1\\) of canary from this failure; nothing more was queued\\.$`,
      ),
    );
    expect(await stack.queue.applicationStatus('canary')).toEqual([]);
    expect(await stack.queue.history('canary')).toHaveLength(3);
    expect(replies().some((t) => t.includes('can only be rolled back from'))).toBe(false);
    // The rollback's header and thread are where it was asked for: the alerts channel.
    expect(
      stack.slack
        .channelMessages(ALERTS)
        .some(
          (m) => !m.threadTs && stack.text(ALERTS, m.ts).includes(`Rollback to ${first.slice(0, 7)} (#1)`),
        ),
    ).toBe(true);
  }, 120_000);

  it('when the environment requires approval, then a rollback waits for an approver and its approval message says what it rolls back to', async () => {
    const PROD = 'C0PROD';
    const approvalsIn = () =>
      stack.slack
        .channelMessages(PROD)
        .filter(
          (m) => !m.threadTs && JSON.stringify(m.blocks).includes(`"action_id":"${APPROVE_ACTION_ID}"`),
        );
    const approved = new Set<string>();
    // The next approval request (an approved one loses its buttons and becomes the sync's header).
    const approveNext = async () => {
      const message = await stack.slack.waitFor(() => approvalsIn().find((m) => !approved.has(m.ts)), 10_000);
      approved.add(message.ts);
      const value = (message.blocks as { elements?: { action_id?: string; value?: string }[] }[])
        .flatMap((b) => b.elements ?? [])
        .find((e) => e.action_id === APPROVE_ACTION_ID)?.value;
      await stack.client.sendBlockAction({
        actionId: APPROVE_ACTION_ID,
        userId: 'U0SAM',
        userName: 'sam',
        channelId: PROD,
        messageTs: message.ts,
        value: value ?? '',
        responseUrl: stack.slack.responseUrl(PROD),
      });
      return message;
    };
    await stack.command(`prod --revision ${first}`, PROD, 'U0PAT');
    await approveNext();
    await stack.finished('prod', 1);
    await stack.command(`prod --revision ${second}`, PROD, 'U0PAT');
    await approveNext();
    await stack.finished('prod', 2);
    expect(await stack.queue.applicationStatus('prod')).toEqual([]);

    await stack.command('rollback prod', PROD, 'U0PAT');
    const approval = await approveNext();
    const [rolledBack] = await stack.finished('prod', 3);

    expect(rolledBack).toMatchObject({
      phase: 'Succeeded',
      revision: first,
      rollback: { id: 1, revision: first },
    });
    const version = await stack.core.readNamespacedConfigMap({ name: 'web-config', namespace: 'prod' });
    expect(version.data?.version).toBe('1');
    // The approval message became the rollback's header.
    expect(stack.text(PROD, approval.ts)).toContain(`Rollback to ${first.slice(0, 7)} (#1)`);

    // A failed production sync's Roll back button: its reply says the rollback waits for approval, as the command's.
    const bad = await git.commit(
      { 'web/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Bad_Name3 }\n' },
      'bad in prod',
    );
    await stack.command(`prod --revision ${bad}`, PROD, 'U0PAT');
    const failedHeader = await approveNext();
    const [failed] = await stack.finished('prod', 4);
    expect(failed?.phase).not.toBe('Succeeded');
    const summary = await stack.slack.waitFor(() =>
      stack.slack
        .thread(PROD, failedHeader.ts)
        .find((m) => JSON.stringify(m.blocks).includes(ROLLBACK_ACTION_ID)),
    );
    await clickRollback(PROD, summary, 'U0PAT');
    const reply = await stack.slack.waitFor(() =>
      stack.slack
        .responseUrlPosts(PROD)
        .map((p) => String(p.body.text ?? ''))
        .find((t) => t.startsWith('Got it: Rollback')),
    );
    expect(reply).toBe(
      `Got it: Rollback to ${first.slice(0, 7)} (#3) of prod. It waits for approval: the request is the header below.`,
    );
  }, 120_000);
});
