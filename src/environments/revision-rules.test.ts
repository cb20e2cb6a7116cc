import { describe, expect, it } from 'vitest';
import { isRevisionAllowed, matchesRevisionRule } from './revision-rules.js';

describe('src/environments/revision-rules', () => {
  it('matches globs against the whole revision name', () => {
    expect(matchesRevisionRule('main', 'main')).toBe(true);
    expect(matchesRevisionRule('main', 'main-hotfix')).toBe(false);
    expect(matchesRevisionRule('v*', 'v1.2.3')).toBe(true);
    expect(matchesRevisionRule('release/*', 'release/2026.11')).toBe(true);
    expect(matchesRevisionRule('release/*', 'feature/x')).toBe(false);
  });

  it('treats /…/ as a regular expression', () => {
    expect(matchesRevisionRule('/^v[0-9]+\\.[0-9]+\\.[0-9]+$/', 'v1.20.3')).toBe(true);
    expect(matchesRevisionRule('/^v[0-9]+\\.[0-9]+\\.[0-9]+$/', 'v1.20')).toBe(false);
  });

  it('allows everything when the list is empty', () => {
    expect(isRevisionAllowed([], 'feature/anything')).toBe(true);
    expect(isRevisionAllowed(['main', 'v*'], 'feature/anything')).toBe(false);
    expect(isRevisionAllowed(['main', 'v*'], 'v2.0.0')).toBe(true);
  });
});
