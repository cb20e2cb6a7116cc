/**
 * The Block Kit subset wavesync posts, and small constructors for it. The shapes are structurally those of
 * `@slack/types` (section, context, actions with buttons, divider, header), narrowed so the terminal renderer
 * can handle every case. Limits from https://docs.slack.dev/reference/block-kit/blocks.
 */

interface MrkdwnText {
  type: 'mrkdwn';
  text: string;
}

interface PlainText {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface SectionBlock {
  type: 'section';
  block_id?: string;
  text: MrkdwnText;
}

export interface ContextBlock {
  type: 'context';
  block_id?: string;
  elements: MrkdwnText[];
}

export interface ButtonElement {
  type: 'button';
  action_id: string;
  text: PlainText;
  value?: string;
  style?: 'primary' | 'danger';
}

export interface ActionsBlock {
  type: 'actions';
  block_id?: string;
  elements: ButtonElement[];
}

interface DividerBlock {
  type: 'divider';
}

interface HeaderBlock {
  type: 'header';
  text: PlainText;
}

export type Block = SectionBlock | ContextBlock | ActionsBlock | DividerBlock | HeaderBlock;

/** A message: blocks plus the plain-text fallback Slack shows in notifications and screen readers. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}

/** Slack's limits (Block Kit reference; chat.postMessage docs). */
export const SLACK_LIMITS = {
  /** blocks per message */
  maxBlocks: 50,
  /** characters of a section's text */
  maxSectionText: 3000,
  /** characters of the top-level `text` */
  maxText: 40_000,
  /** characters of a header block */
  maxHeaderText: 150,
  /** elements of a context block */
  maxContextElements: 10,
} as const;

/** A mrkdwn section; text over Slack's 3,000 characters is cut and ends with CUT_MARK (builders should shorten first). */
export function section(text: string): SectionBlock {
  // Text can carry what a user typed (an application name, a revision) or a tool's output: a section that would
  // exceed Slack's limit is cut, with a visible mark, rather than failing the whole reply (Slack would refuse it,
  // and a slash command would go unanswered).
  const fitted =
    text.length > SLACK_LIMITS.maxSectionText
      ? `${text.slice(0, SLACK_LIMITS.maxSectionText - CUT_MARK.length)}${CUT_MARK}`
      : text;
  return { type: 'section', text: { type: 'mrkdwn', text: fitted } };
}

/** Appended to a section cut to Slack's 3000 characters. */
const CUT_MARK = '… (cut to fit Slack)';

/** A context block of mrkdwn elements (small grey text). */
export function context(...texts: string[]): ContextBlock {
  return { type: 'context', elements: texts.map((text) => ({ type: 'mrkdwn', text })) };
}

/** A button; `value` carries data back to the action handler (never trust it for authorization). */
export function button(
  actionId: string,
  label: string,
  value?: string,
  style?: 'primary' | 'danger',
): ButtonElement {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: label, emoji: true },
    ...(value === undefined ? {} : { value }),
    ...(style === undefined ? {} : { style }),
  };
}

/** An actions block holding buttons. */
export function actions(...elements: ButtonElement[]): ActionsBlock {
  return { type: 'actions', elements };
}

/** A message whose blocks are mrkdwn sections of `lines`, one section; fallback text is the same lines. */
export function textMessage(text: string, ...more: Block[]): SlackMessage {
  return { text: plainFallback(text), blocks: [section(text), ...more] };
}

/** The notification fallback for mrkdwn: markup stripped to readable text, bounded to Slack's limit. */
export function plainFallback(mrkdwn: string): string {
  const plain = mrkdwn
    .replace(/<@([A-Z0-9]+)(\|[^>]+)?>/g, '@$1')
    .replace(/<([^|>]+)\|([^>]+)>/g, '$2')
    .replace(/```/g, '')
    .replace(/`([^`\n]*)`/g, '$1')
    .replace(/(^|[\s(])([*_~])([^\s*_~](?:[^\n]*?[^\s])?)\2(?=$|[\s).,:;!?'"])/gm, '$1$3');
  return plain.length > SLACK_LIMITS.maxText ? `${plain.slice(0, SLACK_LIMITS.maxText - 1)}…` : plain;
}
