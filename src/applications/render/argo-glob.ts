/**
 * Glob matching as Argo CD applies `spec.source.directory.include/exclude`: github.com/gobwas/glob compiled with no
 * separators (Argo CD `util/glob.Match(pattern, relPath)`), so `*` and `**` match any run of characters including
 * `/`, `?` any one character, `[abc]` `[a-z]` `[!abc]` character classes, `{a,b}` alternatives (nestable) and `\`
 * escapes the next character. The pattern must match the whole path relative to the Application's path.
 */

/** The regular expression of `pattern`, or undefined when it does not compile (Argo CD then matches nothing). */
export function compileArgoGlob(pattern: string): RegExp | undefined {
  const state = { i: 0 };
  try {
    const body = compileSequence(pattern, state, false);
    if (state.i !== pattern.length) return undefined;
    return new RegExp(`^${body}$`, 's');
  } catch {
    return undefined;
  }
}

/** True when `path` matches `pattern`; false also for a pattern that does not compile. */
export function matchArgoGlob(pattern: string, path: string): boolean {
  return compileArgoGlob(pattern)?.test(path) ?? false;
}

const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function literal(char: string): string {
  return char.replace(REGEXP_SPECIAL, '\\$&');
}

/** Compile until the end, or (inside `{}`) until an unnested `,` or `}`. */
function compileSequence(pattern: string, state: { i: number }, inBraces: boolean): string {
  let out = '';
  while (state.i < pattern.length) {
    const char = pattern[state.i]!;
    if (inBraces && (char === ',' || char === '}')) return out;
    state.i++;
    if (char === '*') out += '.*';
    else if (char === '?') out += '.';
    else if (char === '\\') {
      if (state.i >= pattern.length) throw new Error('trailing escape');
      out += literal(pattern[state.i++]!);
    } else if (char === '[') out += compileClass(pattern, state);
    else if (char === '{') out += compileAlternatives(pattern, state);
    else out += literal(char);
  }
  if (inBraces) throw new Error('unclosed {');
  return out;
}

function compileAlternatives(pattern: string, state: { i: number }): string {
  const options: string[] = [];
  for (;;) {
    options.push(compileSequence(pattern, state, true));
    const next = pattern[state.i++];
    if (next === '}') return `(?:${options.join('|')})`;
    if (next !== ',') throw new Error('unclosed {');
  }
}

function compileClass(pattern: string, state: { i: number }): string {
  const close = pattern.indexOf(']', state.i);
  if (close < 0) throw new Error('unclosed [');
  let body = pattern.slice(state.i, close);
  state.i = close + 1;
  const negated = body.startsWith('!');
  if (negated) body = body.slice(1);
  if (body === '') throw new Error('empty class');
  const escaped = body.replace(/[\\\]^]/g, '\\$&');
  return negated ? `[^${escaped}]` : `[${escaped}]`;
}
