/**
 * `allowedRevisions` rules: a glob (picomatch, e.g. `main`, `v*`, `release/*`) or a regular expression written
 * `/…/`. An empty list allows every revision.
 */
import picomatch from 'picomatch';
import { isRegexRule } from '../settings/index.js';

/** True when `rule` matches the whole revision name. */
export function matchesRevisionRule(rule: string, revision: string): boolean {
  if (isRegexRule(rule)) return new RegExp(rule.slice(1, -1)).test(revision);
  return picomatch.isMatch(revision, rule, { dot: true });
}

/** True when `rules` is empty or one of them matches `revision`. */
export function isRevisionAllowed(rules: readonly string[], revision: string): boolean {
  return rules.length === 0 || rules.some((rule) => matchesRevisionRule(rule, revision));
}
