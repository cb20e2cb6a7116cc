/**
 * "Did you mean": the known names closest to a mistyped one, by Levenshtein distance (fastest-levenshtein) and
 * by substring, best first.
 */
import { distance } from 'fastest-levenshtein';

/** Up to `limit` names within distance max(2, ⌊length/3⌋) of `wanted`, or containing it; closest first. */
export function closestNames(wanted: string, known: readonly string[], limit = 3): string[] {
  const query = wanted.toLowerCase();
  const threshold = Math.max(2, Math.floor(query.length / 3));
  return known
    .map((name) => ({
      name,
      d: distance(query, name.toLowerCase()),
      sub: name.toLowerCase().includes(query),
    }))
    .filter((c) => c.d <= threshold || (c.sub && query.length >= 2))
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((c) => c.name);
}

/** ` (did you mean PreSync?)` for the closest of `known` to `wanted`, or '' when none is close. */
export function didYouMean(wanted: string, known: readonly string[]): string {
  const closest = closestNames(wanted, known, 1)[0];
  return closest === undefined ? '' : ` (did you mean ${closest}?)`;
}
