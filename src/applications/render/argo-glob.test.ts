import { describe, expect, it } from 'vitest';
import { compileArgoGlob, matchArgoGlob } from './argo-glob.js';

describe('matchArgoGlob (gobwas/glob without separators, as Argo CD directory include/exclude)', () => {
  it.each([
    ['*.yaml', 'deploy.yaml', true],
    ['*.yaml', 'sub/deploy.yaml', true],
    ['*.yaml', 'deploy.yml', false],
    ['{config.json,deployment.yaml}', 'deployment.yaml', true],
    ['{config.json,deployment.yaml}', 'config.json', true],
    ['{config.json,deployment.yaml}', 'service.yaml', false],
    ['*{-prod,-staging}.yaml', 'web-prod.yaml', true],
    ['*{-prod,-staging}.yaml', 'web-dev.yaml', false],
    ['{a,{b,c}d}.yaml', 'cd.yaml', true],
    ['config/**', 'config/a/b.yaml', true],
    ['v?.yaml', 'v1.yaml', true],
    ['v?.yaml', 'v10.yaml', false],
    ['[a-c]*.yaml', 'b.yaml', true],
    ['[!a-c]*.yaml', 'b.yaml', false],
    ['[!a-c]*.yaml', 'd.yaml', true],
    ['\\*.yaml', '*.yaml', true],
    ['\\*.yaml', 'a.yaml', false],
    ['a.b', 'axb', false],
    ['(x).yaml', '(x).yaml', true],
  ])('%s ~ %s → %s', (pattern, path, expected) => {
    expect(matchArgoGlob(pattern, path)).toBe(expected);
  });

  it('matches nothing for a pattern that does not compile, as Argo CD', () => {
    for (const bad of ['{a,b', '[abc', 'x\\', '[]']) {
      expect(compileArgoGlob(bad)).toBeUndefined();
      expect(matchArgoGlob(bad, 'a')).toBe(false);
    }
  });
});
