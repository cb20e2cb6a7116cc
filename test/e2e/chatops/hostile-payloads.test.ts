/**
 * Hostile and malformed requests against `wavesync serve`'s real HTTP endpoint, each signed exactly as Slack signs
 * (so the request checks pass and the payload itself is what is judged): every malformed payload is answered 400
 * naming the problem, at once (not 500, not Bolt's 404 after 3 s), and nothing changes — nothing queued, posted or
 * answered ephemerally. A well-formed drift Sync click that names no open drift notice (a forged click) is refused
 * as stale, ephemerally, and queues nothing.
 * Through `wavesync serve`: the fake Slack Web API, the real queue on the real Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIFT_SYNC_ACTION_ID } from '../../../src/slack/messages/drift-notice-blocks.js';
import { ROLLBACK_ACTION_ID } from '../../../src/slack/messages/rollback-button.js';
import { CANCEL_ACTION_ID } from '../../../src/slack/messages/sync-header-blocks.js';
import { malformedPayloads } from '../support/malformed-payloads.js';
import { type ServeStack, stagingApplicationYaml, startServeStack } from '../support/serve-stack.js';

const USERS = { U0PAT: 'pat' } as const;
const CHANNEL = 'C0WEB';
let stack: ServeStack;

beforeAll(async () => {
  stack = await startServeStack({
    settings: `
applications:
  - directory: applications
defaults:
  driftDetection: { enabled: false }
environments:
  staging: {}
`,
    users: USERS,
    files: {
      'applications/web.yaml': stagingApplicationYaml(
        'web',
        '{ repoURL: "file:///nonexistent/wavesync/repo.git", path: web, targetRevision: main }',
      ),
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const MALFORMED = malformedPayloads(CHANNEL, () => stack.slack.responseUrl(CHANNEL));

const postedOrAnswered = () =>
  stack.slack
    .calls()
    .filter((c) => /^(chat\.|views\.|files\.)/.test(c.method))
    .map((c) => c.method);

describe('test/e2e/chatops/hostile-payloads', () => {
  it('when signed payloads are malformed, then each is answered 400 naming the problem within a second, never 500, and nothing changes', async () => {
    const answers: { name: string; status: number; body: string; ackMs: number }[] = [];
    for (const [name, body, contentType] of MALFORMED) {
      const delivery = await stack.client.sendRaw(body(), contentType);
      answers.push({ name, status: delivery.status, body: delivery.body, ackMs: delivery.ackMs });
    }

    for (const [i, [name, , , problem]] of MALFORMED.entries()) {
      const answer = answers[i]!;
      expect({ name, status: answer.status }).toEqual({ name, status: 400 });
      expect(answer.body, name).toContain(problem);
      expect(answer.ackMs, name).toBeLessThan(1000);
    }
    expect(postedOrAnswered()).toEqual([]);
    expect(stack.slack.responseUrlPosts(CHANNEL)).toEqual([]);
    expect(await stack.queue.applicationStatus('web')).toEqual([]);
    expect(await stack.queue.history('web')).toEqual([]);
    // The endpoint itself works: the same client's well-formed command is answered.
    expect(await stack.command('help', CHANNEL, 'U0PAT')).toContain('/sync');
  });

  it.each([
    [
      'a drift Sync click names no open drift notice',
      DRIFT_SYNC_ACTION_ID,
      'web',
      'This drift notice of web is no longer open (its drift ended, or it is not a drift notice); nothing was queued. To sync, use /sync web.',
    ],
    [
      'a Roll back click names a sync wavesync does not know',
      ROLLBACK_ACTION_ID,
      JSON.stringify({ a: 'web', j: 'no-such-job' }),
      'This Roll back button names no sync of web that wavesync knows of; nothing was queued. To roll back, use /sync rollback web.',
    ],
  ])(
    'when %s, then it is refused as stale, ephemerally, and nothing is queued',
    async (_case, actionId, value, text) => {
      const answers = `stale-${actionId}`;
      const delivery = await stack.client.sendBlockAction({
        actionId,
        value,
        userId: 'U0PAT',
        userName: 'pat',
        channelId: CHANNEL,
        messageTs: '1700000000.000300',
        responseUrl: stack.slack.responseUrl(answers),
      });

      expect(delivery.status).toBe(200);
      const [answer] = await stack.slack.waitFor(() => {
        const posts = stack.slack.responseUrlPosts(answers);
        return posts.length ? posts : undefined;
      });
      expect(answer?.body).toMatchObject({ response_type: 'ephemeral', replace_original: false, text });
      expect(stack.slack.calls('chat.postMessage')).toEqual([]);
      expect(await stack.queue.applicationStatus('web')).toEqual([]);
    },
  );

  it("when a Cancel click names a real sync from a message that is not that sync's header, then it is refused as stale", async () => {
    await stack.command('web', CHANNEL, 'U0PAT');
    const [entry] = await stack.finished('web', 1);
    const header = stack.slack.channelMessages(CHANNEL)[0]!;
    const cancel = (messageTs: string, answers: string) =>
      stack.client.sendBlockAction({
        actionId: CANCEL_ACTION_ID,
        value: entry!.jobId,
        userId: 'U0PAT',
        userName: 'pat',
        channelId: CHANNEL,
        messageTs,
        responseUrl: stack.slack.responseUrl(answers),
      });
    const answerTo = (answers: string) =>
      stack.slack.waitFor(() => stack.slack.responseUrlPosts(answers)[0]?.body.text);

    await cancel('1700000000.000500', 'elsewhere');
    await cancel(header.ts, 'header');

    expect(await answerTo('elsewhere')).toBe(
      'This Cancel button is not on the header of that sync of web; nothing was cancelled.',
    );
    expect(await answerTo('header')).toBe('Nothing to cancel: that sync of web already ended.');
  });
});
