/**
 * "Did you mean guestbook?" — the known name closest to a mistyped one, by Levenshtein edit distance.
 */

/** Edit distance (insertions, deletions, substitutions each cost 1) between `a` and `b`. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `input` (case-insensitive), or undefined when none is within
 * max(2, a third of the input's length) edits — beyond that a suggestion is noise. Ties go to the first listed.
 */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  const limit = Math.max(2, Math.floor(needle.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = levenshtein(needle, name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
