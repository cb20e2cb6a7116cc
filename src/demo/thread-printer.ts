/**
 * ThreadPrinter — shows in a terminal, live, what the bot posts to Slack: it follows the fake Slack API's recorded
 * calls and renders each message through `renderBlocksAsText`, the same blocks Slack would show (one formatting
 * path, two renderers). A header (thread root) prints once and then one line per change of its first line; each
 * thread reply prints indented under its channel's label; broadcast replies and alert-channel posts are marked;
 * ephemeral answers and response_url posts print as "only visible to".
 */
import type { Block } from '../slack/messages/block.js';
import { renderBlocksAsText } from '../slack/messages/render-blocks-as-text.js';
import type { FakeSlackApi, RecordedCall } from './fake-slack/fake-slack-api.js';
import { wrapText } from './terminal-text.js';

export interface ThreadPrinterOptions {
  /** Channel id → label printed before its lines (e.g. `C0GUESTBOOK` → `guestbook`). */
  labels: Readonly<Record<string, string>>;
  /** User id → display name for mentions. */
  users: Readonly<Record<string, string>>;
  write(text: string): void;
  ansi?: boolean;
  /** Poll interval in ms (default 50). */
  intervalMs?: number;
  /** Terminal columns: longer lines are wrapped, then trimmed (terminal-text.ts). Default: no limit. */
  width?: number;
}

export class ThreadPrinter {
  private seen = 0;
  private seenResponses = 0;
  private readonly headers = new Map<string, string>();
  private readonly replies = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  private readonly slack: FakeSlackApi;
  private readonly o: ThreadPrinterOptions;

  constructor(slack: FakeSlackApi, options: ThreadPrinterOptions) {
    this.slack = slack;
    this.o = options;
  }

  start(): void {
    this.timer = setInterval(() => this.flush(), this.o.intervalMs ?? 50);
  }

  /** Print everything recorded so far and stop following. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.flush();
  }

  /** Print the calls recorded since the last flush. */
  flush(): void {
    const calls = this.slack.calls();
    for (const call of calls.slice(this.seen)) this.print(call);
    this.seen = calls.length;
    const posts = this.slack.responseUrlPosts();
    for (const post of posts.slice(this.seenResponses)) {
      this.line(post.id, `  (only visible to you) ${this.render(post.body).join(' ')}`);
    }
    this.seenResponses = posts.length;
  }

  private print(call: RecordedCall): void {
    if (call.status !== 200 || call.response.ok !== true) return;
    const a = call.args;
    const channel = String(a.channel ?? '');
    if (call.method === 'chat.postMessage') {
      const lines = this.render(a);
      if (typeof a.thread_ts !== 'string') {
        this.headers.set(`${channel}/${String(call.response.ts)}`, lines[0] ?? '');
        this.line(channel, lines.join('\n'), true);
      } else {
        this.replies.add(`${channel}/${String(call.response.ts)}`);
        const broadcast = a.reply_broadcast === true || a.reply_broadcast === 'true';
        // A reply that is itself a sub-thread line (an App of Apps child, `↳ …`) is indented once more.
        const marker = lines[0]?.startsWith('↳ ') ? '    ' : '  ↳ ';
        this.line(channel, indent(lines, broadcast ? '  ↳ (also sent to the channel) ' : marker));
      }
    } else if (call.method === 'chat.update') {
      const key = `${channel}/${String(a.ts)}`;
      const first = this.render(a)[0] ?? '';
      if (this.headers.get(key) !== first) {
        this.headers.set(key, first);
        // A reply updated in place (an App of Apps child's line) prints as itself; the root is the header.
        this.line(channel, this.replies.has(key) ? `  ⟳ ${first}` : `  ⟳ header: ${first}`);
      }
    } else if (call.method === 'chat.postEphemeral') {
      const user = this.o.users[String(a.user)] ?? String(a.user);
      this.line(channel, `  (only visible to @${user}) ${this.render(a).join(' ')}`);
    }
  }

  private render(args: Record<string, unknown>): string[] {
    const blocks = Array.isArray(args.blocks) ? (args.blocks as Block[]) : [];
    const text =
      blocks.length > 0
        ? renderBlocksAsText(blocks, { users: this.o.users, ansi: this.o.ansi ?? false })
        : String(args.text ?? '');
    return text.split('\n');
  }

  private line(channel: string, text: string, gap = false): void {
    const label = this.o.labels[channel] ?? channel;
    const prefix = this.o.ansi ? `\u001b[36m[${label}]\u001b[39m` : `[${label}]`;
    const margin = ' '.repeat(label.length + 3);
    const body = text
      .split('\n')
      .map((l, i) => (i === 0 ? `${prefix} ${l}` : `${margin}${l}`))
      .map((l) => (this.o.width === undefined ? l : wrapText(l, this.o.width, `${margin}    `)))
      .join('\n');
    this.o.write(`${gap ? '\n' : ''}${body}\n`);
  }
}

function indent(lines: string[], first: string): string {
  return lines.map((l, i) => (i === 0 ? first : ' '.repeat(first.length)) + l).join('\n');
}
