/**
 * Malformed Slack requests, one per way a payload can be wrong (each signed as Slack signs, so the payload itself is
 * what is judged): the table of test/e2e/chatops/hostile-payloads.test.ts and bench/malformed-payload.bench.ts.
 * Each case is [name, raw body (fresh per call), content type, what the 400 names].
 */
import { blockActionPayload, slashCommandFields } from '../../../src/demo/fake-slack/slack-client.js';
import { CANCEL_ACTION_ID } from '../../../src/slack/messages/sync-header-blocks.js';

export type MalformedCase = [name: string, body: () => string, contentType: string, problem: string];

export const FORM = 'application/x-www-form-urlencoded';

/** The cases, for clicks and commands in `channel` (`responseUrl`: the fake Slack's response URL of it). */
export function malformedPayloads(channel: string, responseUrl: () => string): MalformedCase[] {
  const CHANNEL = channel;
  let n = 0;
  /** A well-formed click on the header's Cancel button, as Slack sends it (a fresh trigger each time). */
  const click = (): Record<string, unknown> =>
    blockActionPayload(
      {
        actionId: CANCEL_ACTION_ID,
        value: 'job-1',
        channelId: CHANNEL,
        messageTs: '1700000000.000100',
        responseUrl: responseUrl(),
      },
      ++n,
    );
  const firstAction = (p: Record<string, unknown>) => (p.actions as Record<string, unknown>[])[0]!;
  const asForm = (payload: unknown) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const clickWith = (change: (p: Record<string, unknown>) => void) => {
    const p = click();
    change(p);
    return asForm(p);
  };
  const command = (change: (f: Record<string, string>) => void = () => {}) => {
    const fields = slashCommandFields({ text: 'help', channelId: CHANNEL }, ++n);
    change(fields);
    return new URLSearchParams(fields).toString();
  };

  /** [case, raw body, content type, what the 400 names] */
  return [
    ['payload=[1,2,3]', () => 'payload=[1,2,3]', FORM, 'the payload is an array'],
    ['payload=null', () => 'payload=null', FORM, 'the payload is null'],
    ['a payload that is a JSON string', () => 'payload="hello"', FORM, 'the payload is a string'],
    ['a payload that is not JSON', () => 'payload=%7Bnot-json', FORM, 'neither a form nor JSON'],
    ['"actions": null', () => clickWith((p) => (p.actions = null)), FORM, 'actions'],
    ['no actions', () => clickWith((p) => (p.actions = [])), FORM, 'exactly one action'],
    [
      'two actions',
      () => clickWith((p) => (p.actions = [firstAction(p), firstAction(p)])),
      FORM,
      'exactly one action',
    ],
    [
      'a button wavesync never posted',
      () => clickWith((p) => (firstAction(p).action_id = 'wavesync_delete_everything')),
      FORM,
      'not a wavesync button',
    ],
    [
      'a select menu',
      () => clickWith((p) => (firstAction(p).type = 'static_select')),
      FORM,
      'actions.0.type',
    ],
    [
      'a button value over 2000 characters',
      () => clickWith((p) => (firstAction(p).value = 'x'.repeat(2001))),
      FORM,
      'actions.0.value',
    ],
    ['no user', () => clickWith((p) => delete p.user), FORM, 'user'],
    [
      'a user id that is mrkdwn',
      () => clickWith((p) => ((p.user as Record<string, unknown>).id = '<!channel>')),
      FORM,
      'user.id: expected a Slack id',
    ],
    ['no container', () => clickWith((p) => delete p.container), FORM, 'container'],
    [
      "a channel other than the clicked message's",
      () => clickWith((p) => ((p.channel as Record<string, unknown>).id = 'C0OTHER')),
      FORM,
      'channel.id differs from container.channel_id',
    ],
    [
      'a message ts that is not one',
      () => clickWith((p) => ((p.container as Record<string, unknown>).message_ts = 'yesterday')),
      FORM,
      'container.message_ts',
    ],
    [
      'a view_submission (wavesync opens no form)',
      () =>
        asForm({
          type: 'view_submission',
          user: { id: 'U0PAT' },
          view: { id: 'V1', callback_id: 'x', state: { values: {} } },
        }),
      FORM,
      'no form that can be submitted',
    ],
    [
      'a view_submission without a view',
      () => asForm({ type: 'view_submission', user: { id: 'U0PAT' } }),
      FORM,
      'view',
    ],
    [
      'a shortcut',
      () => asForm({ type: 'shortcut', callback_id: 'x', user: { id: 'U0PAT' } }),
      FORM,
      'type "shortcut"',
    ],
    [
      'an Events API callback',
      () => JSON.stringify({ type: 'event_callback', event: { type: 'app_mention', text: 'hi' } }),
      'application/json',
      'type "event_callback"',
    ],
    ['a JSON array body', () => '[1,2,3]', 'application/json', 'the payload is an array'],
    ['an empty form', () => '', FORM, 'no type'],
    ['a command without user_id', () => command((f) => delete f.user_id), FORM, 'user_id'],
    [
      'another slash command',
      () => command((f) => (f.command = '/deploy')),
      FORM,
      'expected the command /sync',
    ],
    ['command text of 4001 characters', () => command((f) => (f.text = 'x'.repeat(4001))), FORM, 'text'],
    [
      'a response_url that is not http(s)',
      () => command((f) => (f.response_url = 'javascript:alert(1)')),
      FORM,
      'response_url',
    ],
    ['user_id given twice', () => `${command()}&user_id=U0OTHER`, FORM, 'user_id'],
  ];
}
