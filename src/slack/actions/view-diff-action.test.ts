import type { BlockAction, ButtonAction } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../../../test/fakes/fake-slack-api.js';
import type { ApplicationDiff } from '../../engine/index.js';
import type { RequestDiffResult } from '../../environments/index.js';
import { viewDiffAction } from './view-diff-action.js';

/** A diff of one ConfigMap whose data changes on `lines` lines (each ~60 characters). */
function bigDiff(lines: number, fingerprint: string): ApplicationDiff {
  const body = Array.from(
    { length: lines },
    (_, i) => `-  line${i}: old value of a long enough line ${i}\n+  line${i}: new value ${i}`,
  );
  return {
    application: 'guestbook',
    revision: '9ea41d3e8bf1',
    resources: [
      {
        group: '',
        kind: 'ConfigMap',
        namespace: 'guestbook',
        name: 'big',
        action: 'change',
        fields: [{ path: 'data.line0', live: 'old', desired: 'new' }],
        secretKeysChanged: [],
        diff: `--- live\n+++ desired\n${body.join('\n')}\n`,
      },
    ],
    hooks: [],
    counts: { create: 0, change: 1, unchanged: 0, prune: 0, pruneSkipped: 0, hooks: 0 },
    warnings: [],
    fingerprint,
  } as ApplicationDiff;
}

describe('src/slack/actions/view-diff-action', () => {
  let fake: FakeSlackApi | undefined;
  let clicks = 0;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function click(diff: ApplicationDiff) {
    fake ??= await FakeSlackApi.start();
    const slack = fake;
    const client = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    const approval = await client.chat.postMessage({
      channel: 'C0DEPLOYS',
      text: 'guestbook needs approval',
    });
    const body = {
      trigger_id: `trigger.${Date.now()}.${++clicks}`,
      user: { id: 'U0SAM', name: 'sam' },
      container: { channel_id: 'C0DEPLOYS', message_ts: approval.ts },
    } as unknown as BlockAction;
    const result: RequestDiffResult = {
      allowed: true,
      application: 'guestbook',
      preview: { revision: diff.revision, plan: {} as never, diff },
      changedSinceRequest: false,
    };
    await viewDiffAction({
      body,
      action: { value: 'v' } as ButtonAction,
      client,
      requestDiff: async () => result,
    });
    return { threadTs: approval.ts!, slack };
  }

  it('a diff over the modal limits: the modal shows what fits and links the whole diff, shared as a file in the approval thread', async () => {
    const diff = bigDiff(6000, 'f00dfeed1234');
    const { threadTs, slack } = await click(diff);

    const [file] = slack.files();
    expect(file).toMatchObject({ channel: 'C0DEPLOYS', threadTs, filename: 'guestbook-f00dfeed.diff' });
    expect(file?.content.split('\n').filter((l) => l.startsWith('+  line'))).toHaveLength(6000);
    const modal = JSON.stringify(slack.views().at(-1)?.view);
    expect(modal).toMatch(
      /\d+ more diff lines do not fit in Slack: the whole diff is the file <https:\/\/fake\.slack\.test\/files\/[^|]+\|guestbook-f00dfeed\.diff> in the approval thread\./,
    );
    expect(modal).not.toContain('wavesync diff --app');
    expect(slack.thread('C0DEPLOYS', threadTs).map((m) => m.text)).toEqual([
      'The whole live diff of *guestbook* (12003 lines), too long for the View diff window.',
    ]);
  });

  it('a diff that fits: no file; when sharing fails, the modal points to wavesync diff', async () => {
    const { slack } = await click(bigDiff(10, 'aaaa0000'));
    expect(slack.files()).toEqual([]);

    slack.failNext('files.completeUploadExternal', 'not_in_channel');
    await click(bigDiff(6000, 'bbbb1111'));
    expect(slack.files()).toEqual([]);
    expect(JSON.stringify(slack.views().at(-1)?.view)).toContain(
      'run `wavesync diff --app guestbook` for all of it.',
    );
  });
});
