/**
 * Text for a terminal of TERMINAL_COLUMNS columns: long lines (a Kubernetes message can run to ~280 characters)
 * are wrapped at spaces onto at most MAX_LINES lines, the rest trimmed with "…". Widths count what is visible:
 * ANSI colour codes take no column.
 */

/** The width the demo writes for (100 columns). */
export const TERMINAL_COLUMNS = 100;

/** Lines one long line may wrap onto before the rest is trimmed. */
const MAX_LINES = 3;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences are what it matches
const ANSI = /\u001b\[[0-9;]*m/g;

/** Separators and ellipses at the end of a line cut short: `a ·`, `a,`, `a …`, `a…`. */
const TRAILING_SEPARATORS = /[\s·•,;:|/—–-]*(…|\.\.\.)?[\s·•,;:|/—–-]*$/u;

/** Visible length: characters without ANSI colour codes. */
export function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/**
 * `text` (one line) wrapped at spaces to `width` columns, continuation lines starting with `indent`; past
 * MAX_LINES lines the last one ends with "…". A word longer than a line is cut.
 */
export function wrapText(text: string, width: number, indent: string): string {
  if (visibleLength(text) <= width) return text;
  const lines: string[] = [];
  // Leading spaces (a table's indent) stay on the first line.
  let line = /^ */.exec(text)?.[0] ?? '';
  for (const word of text.trimStart().split(' ')) {
    const candidate = line.trim() === '' ? `${line}${word}` : `${line} ${word}`;
    const limit = lines.length === 0 ? width : width - indent.length;
    if (visibleLength(candidate) <= limit || line.trim() === '') line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  const kept = lines.slice(0, MAX_LINES).map((l, i) => cut(l, i === 0 ? width : width - indent.length));
  if (lines.length > MAX_LINES) {
    // The cut line ends in one "…", not after a separator (`cluster ·…`) nor after an ellipsis of its own.
    const last = cut(kept[MAX_LINES - 1]!, width - indent.length - 1).replace(TRAILING_SEPARATORS, '');
    kept[MAX_LINES - 1] = `${last}…`;
  }
  return kept.map((l, i) => (i === 0 ? l : `${indent}${l}`)).join('\n');
}

/** At most `width` visible characters (a plain cut: only for words longer than a line). */
function cut(line: string, width: number): string {
  if (visibleLength(line) <= width) return line;
  return `${line.replace(ANSI, '').slice(0, width - 1)}…`;
}
