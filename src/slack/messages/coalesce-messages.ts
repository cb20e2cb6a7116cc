/**
 * Coalescing for the thread: several pending replies become as few messages as Slack's limits allow, and no
 * content is dropped. Consecutive single-line sections merge into one section (≤ 3,000 characters); messages
 * are then packed up to 50 blocks each.
 */
import { type Block, plainFallback, SLACK_LIMITS, type SlackMessage, section } from './block.js';

/** Pack `messages` (in order) into the fewest messages within Slack's block and text limits; [] for none. */
export function coalesceMessages(messages: readonly SlackMessage[]): SlackMessage[] {
  const blocks = mergeSections(messages.flatMap((m) => m.blocks));
  if (blocks.length === 0) return [];
  if (blocks.length <= SLACK_LIMITS.maxBlocks) {
    return [{ text: plainFallback(messages.map((m) => m.text).join('\n')), blocks }];
  }
  const out: SlackMessage[] = [];
  for (let i = 0; i < blocks.length; i += SLACK_LIMITS.maxBlocks) {
    const chunk = blocks.slice(i, i + SLACK_LIMITS.maxBlocks);
    out.push({ text: plainFallback(chunk.map(blockText).join('\n')), blocks: chunk });
  }
  return out;
}

function mergeSections(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (
      block.type === 'section' &&
      last?.type === 'section' &&
      !isCode(block.text.text) &&
      !isCode(last.text.text) &&
      last.text.text.length + 1 + block.text.text.length <= SLACK_LIMITS.maxSectionText
    ) {
      out[out.length - 1] = section(`${last.text.text}\n${block.text.text}`);
    } else {
      out.push(block);
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
