/**
 * A line-level unified diff (the `diff -u` format: `@@ -a,b +c,d @@` hunks with 3 lines of context), used to show
 * the YAML of a live object next to what a sync would make of it. No maintained diff library is installed in the
 * project (jsdiff would fit); this is the classic longest-common-subsequence diff after trimming the common
 * prefix and suffix, which is all two renderings of one Kubernetes object need (they share most lines).
 * Cost: O(n) for the common ends plus O(a·b) for the differing middle of a and b lines; a middle over
 * MAX_MIDDLE_CELLS is shown as removed-then-added instead (still a correct diff, only not minimal).
 */

/** One line of a diff: ' ' unchanged, '-' only in the old text, '+' only in the new text. */
interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Above this many LCS cells (a·b), the middle is shown whole as removed then added. */
const MAX_MIDDLE_CELLS = 4_000_000;

/** Every line of `before` and `after` marked unchanged, removed or added, in order. */
function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) {
    endB--;
    endA--;
  }
  const out: DiffLine[] = before.slice(0, start).map((text) => ({ op: ' ', text }));
  out.push(...middle(before.slice(start, endB), after.slice(start, endA)));
  for (const text of before.slice(endB)) out.push({ op: ' ', text });
  return out;
}

function middle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const removed = a.map((text): DiffLine => ({ op: '-', text }));
  const added = b.map((text): DiffLine => ({ op: '+', text }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_MIDDLE_CELLS)
    return [...removed, ...added];
  // lcs[i][j] = length of the LCS of a[i..] and b[j..], one row per line of a.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push(removed[i++]!);
    } else {
      out.push(added[j++]!);
    }
  }
  out.push(...removed.slice(i), ...added.slice(j));
  return out;
}

/**
 * The unified diff of two texts (split on '\n'), with `context` lines around each change (default 3), headed by
 * `--- oldLabel` / `+++ newLabel`. '' when the texts are equal.
 */
export function unifiedDiff(
  oldText: string,
  newText: string,
  labels: { old: string; new: string },
  context = 3,
): string {
  if (oldText === newText) return '';
  const lines = diffLines(splitLines(oldText), splitLines(newText));
  const out = [`--- ${labels.old}`, `+++ ${labels.new}`];
  let k = 0;
  while (k < lines.length) {
    let change = k;
    while (change < lines.length && lines[change]!.op === ' ') change++;
    if (change === lines.length) break;
    const first = Math.max(k, change - context);
    let last = change;
    // Extend the hunk while the next change is within 2·context unchanged lines.
    for (let m = change; m < lines.length; m++) {
      if (lines[m]!.op !== ' ') last = m;
      else if (m - last > 2 * context) break;
    }
    const end = Math.min(lines.length, last + context + 1);
    out.push(hunkHeader(lines, first, end), ...lines.slice(first, end).map((l) => `${l.op}${l.text}`));
    k = end;
  }
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function hunkHeader(lines: readonly DiffLine[], first: number, end: number): string {
  let oldStart = 1;
  let newStart = 1;
  for (let m = 0; m < first; m++) {
    if (lines[m]!.op !== '+') oldStart++;
    if (lines[m]!.op !== '-') newStart++;
  }
  const slice = lines.slice(first, end);
  const oldCount = slice.filter((l) => l.op !== '+').length;
  const newCount = slice.filter((l) => l.op !== '-').length;
  const range = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
  return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`;
}
