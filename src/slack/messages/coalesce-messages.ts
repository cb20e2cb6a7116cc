/**
 * Coalescing for the thread: several pending replies become as few messages as Slack's limits allow, and no
 * content is dropped. Consecutive single-line sections merge into one section (≤ 3,000 characters); messages
 * are then packed up to 50 blocks each.
 */
import { type Block, plainFallback, SLACK_LIMITS, type SlackMessage, section } from './block.js';

/** Pack `messages` (in order) into the fewest messages within Slack's block and text limits; [] for none. */
export function coalesceMessages(messages: readonly SlackMessage[]): SlackMessage[] {
  return coalesceKeyed(messages.map((message) => ({ message, keys: [] }))).map((k) => k.message);
}

/** A message with the stable keys of the thread lines it carries (see ThreadPoster). */
export interface KeyedMessage {
  message: SlackMessage;
  keys: readonly string[];
}

/**
 * coalesceMessages that keeps track of the keys: each output carries the keys of the inputs whose last block it
 * holds, so a key is recorded as posted only once all of its content is.
 */
export function coalesceKeyed(items: readonly KeyedMessage[]): KeyedMessage[] {
  const owned = mergeSections(
    items.flatMap((m, owner) => m.message.blocks.map((block) => ({ block, owners: [owner] }))),
  );
  if (owned.length === 0) return [];
  if (owned.length <= SLACK_LIMITS.maxBlocks) {
    const text = plainFallback(items.map((m) => m.message.text).join('\n'));
    return [{ message: { text, blocks: owned.map((b) => b.block) }, keys: items.flatMap((m) => m.keys) }];
  }
  // An input belongs to the chunk holding its last block (inputs without blocks go with the first chunk).
  const chunkOf = new Map<number, number>();
  owned.forEach((b, i) => {
    for (const o of b.owners) chunkOf.set(o, Math.floor(i / SLACK_LIMITS.maxBlocks));
  });
  const out: KeyedMessage[] = [];
  for (let i = 0; i < owned.length; i += SLACK_LIMITS.maxBlocks) {
    const chunk = i / SLACK_LIMITS.maxBlocks;
    const blocks = owned.slice(i, i + SLACK_LIMITS.maxBlocks).map((b) => b.block);
    const keys = items.flatMap((m, o) => ((chunkOf.get(o) ?? 0) === chunk ? m.keys : []));
    out.push({ message: { text: plainFallback(blocks.map(blockText).join('\n')), blocks }, keys });
  }
  return out;
}

/** A block and the inputs whose content it holds (a merged section holds several). */
interface OwnedBlock {
  block: Block;
  owners: number[];
}

function mergeSections(blocks: readonly OwnedBlock[]): OwnedBlock[] {
  const out: OwnedBlock[] = [];
  for (const item of blocks) {
    const { block } = item;
    const prev = out[out.length - 1];
    const last = prev?.block;
    if (
      prev &&
      block.type === 'section' &&
      last?.type === 'section' &&
      !isCode(block.text.text) &&
      !isCode(last.text.text) &&
      last.text.text.length + 1 + block.text.text.length <= SLACK_LIMITS.maxSectionText
    ) {
      out[out.length - 1] = {
        block: section(`${last.text.text}\n${block.text.text}`),
        owners: [...prev.owners, ...item.owners],
      };
    } else {
      out.push(item);
    }
  }
  return out;
}

function isCode(text: string): boolean {
  return text.includes('```');
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'section':
      return block.text.text;
    case 'context':
      return block.elements.map((e) => e.text).join(' ');
    case 'header':
      return block.text.text;
    default:
      return '';
  }
}
