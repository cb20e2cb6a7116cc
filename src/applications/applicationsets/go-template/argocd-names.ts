/**
 * Argo CD's names for generated Applications (`applicationset/utils`): SanitizeName (the `normalize` function, and
 * the git generator's `*Normalized` parameters) and SlugifyName (the `slugify` function).
 */

/** Argo CD's SanitizeName: lower case, `[^-a-z0-9.]` → `-`, at most 253 characters, no leading/trailing `-`/`.`. */
export function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^-a-z0-9.]/g, '-')
    .slice(0, 253)
    .replace(/^[-.]+|[-.]+$/g, '');
}

/** Argo CD's SlugifyName: SanitizeName, then gosimple/slug with `maxLen` and `smartTruncate`. */
export function slugifyName(maxLen: number, smartTruncate: boolean, name: string): string {
  const slug = normalizeName(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (maxLen <= 0 || slug.length <= maxLen) return slug;
  if (!smartTruncate) return slug.slice(0, maxLen).replace(/-+$/, '');
  let out = '';
  for (const word of slug.split('-')) {
    const next = out === '' ? word : `${out}-${word}`;
    if (next.length > maxLen) break;
    out = next;
  }
  return out === '' ? slug.slice(0, maxLen) : out;
}
