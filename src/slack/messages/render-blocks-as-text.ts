/**
 * A terminal renderer for the same blocks the bot posts, so the demo shows a Slack thread in a terminal through
 * one formatting path: mrkdwn markup becomes plain text (or ANSI bold/dim), mentions become `@name`, buttons
 * become `[Label]`.
 */
import type { Block } from './block.js';

export interface RenderTextOptions {
  /** Display names for user ids in mentions (`<@U1>` → `@pat`); unknown ids print as `@U1`. */
  users?: Readonly<Record<string, string>>;
  /** Emit ANSI bold for `*bold*` and dim for context lines. Default false. */
  ansi?: boolean;
  /** Prefix for every line, e.g. `  ` for thread replies. Default ''. */
  indent?: string;
}

/** Render blocks as lines of text joined with `\n` (no trailing newline). */
export function renderBlocksAsText(blocks: readonly Block[], options: RenderTextOptions = {}): string {
  const out: string[] = [];
  for (const block of blocks) out.push(...renderBlock(block, options));
  const indent = options.indent ?? '';
  return out.map((line) => indent + line).join('\n');
}

function renderBlock(block: Block, o: RenderTextOptions): string[] {
  switch (block.type) {
    case 'section':
      return mrkdwnToText(block.text.text, o).split('\n');
    case 'context':
      return [dim(block.elements.map((e) => mrkdwnToText(e.text, o)).join('  '), o)];
    case 'actions':
      return [block.elements.map((b) => `[${b.text.text}]`).join('  ')];
    case 'divider':
      return ['─'.repeat(40)];
    case 'header':
      return [bold(block.text.text, o)];
  }
}

/** Slack mrkdwn → terminal text: mentions, links, code blocks (prefixed `│ `), bold/italic markers, entities. */
export function mrkdwnToText(text: string, o: RenderTextOptions = {}): string {
  const out: string[] = [];
  let inCode = false;
  for (const raw of text.split('\n')) {
    const segments = raw.split('```');
    let line = '';
    let hadCode = inCode && segments.length === 1;
    segments.forEach((segment, i) => {
      if (i > 0) inCode = !inCode;
      if (inCode) {
        hadCode ||= segment !== '';
        line += unescapeEntities(segment);
      } else {
        line += inline(segment, o);
      }
    });
    if (segments.length > 1 && line.trim() === '') continue; // a line holding only a fence
    out.push(hadCode ? `│ ${line}` : line);
  }
  return out.join('\n');
}

function inline(text: string, o: RenderTextOptions): string {
  const replaced = text
    .replace(
      /<@([A-Z0-9]+)(?:\|([^>]+))?>/g,
      (_m, id: string, label?: string) => `@${label ?? o.users?.[id] ?? id}`,
    )
    .replace(/<#([A-Z0-9]+)(?:\|([^>]+))?>/g, (_m, id: string, label?: string) => `#${label ?? id}`)
    .replace(/<([^|>]+)\|([^>]+)>/g, '$2')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/\*([^*\n]+)\*/g, (_m, b: string) => bold(b, o))
    .replace(/(^|\s)_([^_\n]+)_(?=\s|$)/g, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1');
  return unescapeEntities(replaced);
}

function unescapeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function bold(text: string, o: RenderTextOptions): string {
  return o.ansi ? `\u001b[1m${text}\u001b[22m` : text;
}

function dim(text: string, o: RenderTextOptions): string {
  return o.ansi ? `\u001b[2m${text}\u001b[22m` : text;
}
