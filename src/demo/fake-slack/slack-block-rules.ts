/**
 * Slack's documented limits on message payloads, as the fake Web API enforces them. Independent of the product's
 * own constants on purpose: the fake stands in for Slack, not for our code.
 * Sources: https://docs.slack.dev/reference/block-kit/blocks (per-block limits),
 * https://docs.slack.dev/reference/methods/chat.postMessage (50 blocks, 40,000-character text → msg_too_long).
 */

export const LIMITS = {
  blocks: 50,
  sectionText: 3000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  blockId: 255,
  text: 40_000,
  /** views.open / views.update: blocks of a modal, characters of its title and close/submit labels. */
  modalBlocks: 100,
  modalTitle: 24,
  modalButton: 24,
} as const;

/** Problems in Slack's `[ERROR] … [json-pointer:/blocks/N/…]` style; empty when the blocks are valid. */
export function blockProblems(blocks: unknown, maxBlocks: number = LIMITS.blocks, base = ''): string[] {
  if (!Array.isArray(blocks)) return [`[ERROR] must be an array [json-pointer:${base}/blocks]`];
  const problems: string[] = [];
  if (blocks.length > maxBlocks)
    problems.push(`[ERROR] no more than ${maxBlocks} items allowed [json-pointer:${base}/blocks]`);
  const ids = new Set<string>();
  for (const [i, block] of blocks.entries()) {
    const at = `${base}/blocks/${i}`;
    if (typeof block !== 'object' || block === null) {
      problems.push(`[ERROR] must be an object [json-pointer:${at}]`);
      continue;
    }
    const b = block as Record<string, unknown>;
    if (typeof b.block_id === 'string') {
      if (b.block_id.length > LIMITS.blockId)
        problems.push(`[ERROR] block_id too long [json-pointer:${at}/block_id]`);
      if (ids.has(b.block_id)) problems.push(`[ERROR] duplicate block_id [json-pointer:${at}/block_id]`);
      ids.add(b.block_id);
    }
    problems.push(...blockTypeProblems(b, at));
  }
  return problems;
}

function blockTypeProblems(b: Record<string, unknown>, at: string): string[] {
  switch (b.type) {
    case 'section':
      return textProblems(b.text, `${at}/text`, LIMITS.sectionText, ['mrkdwn', 'plain_text']);
    case 'header':
      return textProblems(b.text, `${at}/text`, LIMITS.headerText, ['plain_text']);
    case 'divider':
      return [];
    case 'context':
      return listProblems(b.elements, `${at}/elements`, LIMITS.contextElements, (e, p) =>
        textProblems(e, p, LIMITS.sectionText, ['mrkdwn', 'plain_text']),
      );
    case 'actions':
      return listProblems(b.elements, `${at}/elements`, LIMITS.actionsElements, buttonProblems);
    default:
      return [`[ERROR] unsupported type \`${String(b.type)}\` [json-pointer:${at}/type]`];
  }
}

/**
 * A modal view as views.open / views.update take it (https://docs.slack.dev/reference/views/modal-views):
 * `type: modal`, a plain_text title of at most 24 characters, optional close/submit labels of at most 24, and
 * 1–100 blocks.
 */
export function modalProblems(view: unknown): string[] {
  if (typeof view !== 'object' || view === null)
    return ['[ERROR] missing required field: view [json-pointer:/view]'];
  const v = view as Record<string, unknown>;
  if (v.type !== 'modal') return ['[ERROR] must be `modal` [json-pointer:/view/type]'];
  const problems = textProblems(v.title, '/view/title', LIMITS.modalTitle, ['plain_text']);
  for (const label of ['close', 'submit'] as const) {
    if (v[label] !== undefined)
      problems.push(...textProblems(v[label], `/view/${label}`, LIMITS.modalButton, ['plain_text']));
  }
  if (Array.isArray(v.blocks) && v.blocks.length === 0) {
    problems.push('[ERROR] must provide at least 1 item [json-pointer:/view/blocks]');
  }
  problems.push(...blockProblems(v.blocks, LIMITS.modalBlocks, '/view'));
  return problems;
}

function textProblems(t: unknown, at: string, max: number, types: readonly string[]): string[] {
  if (typeof t !== 'object' || t === null)
    return [`[ERROR] missing required field: text [json-pointer:${at}]`];
  const { type, text } = t as Record<string, unknown>;
  if (typeof type !== 'string' || !types.includes(type))
    return [`[ERROR] invalid text type [json-pointer:${at}/type]`];
  if (typeof text !== 'string' || text.length === 0)
    return [`[ERROR] must be more than 0 characters [json-pointer:${at}/text]`];
  if (text.length > max) return [`[ERROR] must be less than ${max + 1} characters [json-pointer:${at}/text]`];
  return [];
}

function listProblems(
  list: unknown,
  at: string,
  max: number,
  each: (e: unknown, at: string) => string[],
): string[] {
  if (!Array.isArray(list) || list.length === 0)
    return [`[ERROR] must provide at least 1 item [json-pointer:${at}]`];
  if (list.length > max) return [`[ERROR] no more than ${max} items allowed [json-pointer:${at}]`];
  return list.flatMap((e, i) => each(e, `${at}/${i}`));
}

function buttonProblems(e: unknown, at: string): string[] {
  const b = (e ?? {}) as Record<string, unknown>;
  if (b.type !== 'button') return [`[ERROR] unsupported element type [json-pointer:${at}/type]`];
  const problems = textProblems(b.text, `${at}/text`, LIMITS.buttonText, ['plain_text']);
  if (typeof b.action_id === 'string' && b.action_id.length > LIMITS.actionId)
    problems.push(`[ERROR] action_id too long [json-pointer:${at}/action_id]`);
  if (typeof b.value === 'string' && b.value.length > LIMITS.buttonValue)
    problems.push(`[ERROR] value too long [json-pointer:${at}/value]`);
  return problems;
}
