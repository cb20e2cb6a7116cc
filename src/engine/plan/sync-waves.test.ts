import { describe, expect, it } from 'vitest';
import { obj, WAVE } from '../../../test/builders/manifest-builders.js';
import { syncWaveOf } from './sync-waves.js';

const WEIGHT = 'helm.sh/hook-weight';

function waveWithWarnings(annotations: Record<string, string>): { wave: number; warnings: string[] } {
  const warnings: string[] = [];
  const wave = syncWaveOf(obj('v1', 'ConfigMap', 'cm', annotations), (m) => warnings.push(m));
  return { wave, warnings };
}

describe('src/engine/sync-waves', () => {
  it('defaults to wave 0 without annotations and warns about nothing', () => {
    expect(waveWithWarnings({})).toEqual({ wave: 0, warnings: [] });
  });

  it.each([
    ['-1', -1],
    ['+3', 3],
    ['007', 7],
    ['10', 10],
  ])('reads sync-wave %j as %d', (text, wave) => {
    expect(waveWithWarnings({ [WAVE]: text })).toEqual({ wave, warnings: [] });
  });

  it('uses helm.sh/hook-weight when sync-wave is absent, on any object', () => {
    expect(waveWithWarnings({ [WEIGHT]: '-5' })).toEqual({ wave: -5, warnings: [] });
  });

  it('prefers a valid sync-wave over the helm weight', () => {
    expect(waveWithWarnings({ [WAVE]: '2', [WEIGHT]: '-5' }).wave).toBe(2);
  });

  it.each(['1.5', ' 5', '5 ', 'abc', ''])('falls back to 0 for sync-wave %j and warns', (text) => {
    const { wave, warnings } = waveWithWarnings({ [WAVE]: text });

    expect(wave).toBe(0);
    expect(warnings).toEqual([
      `annotation argocd.argoproj.io/sync-wave: ${JSON.stringify(text)} is not an integer (Go strconv.Atoi syntax); Argo CD falls back to 0`,
    ]);
  });

  it('falls back from an unparsable sync-wave to the helm weight and says so', () => {
    const { wave, warnings } = waveWithWarnings({ [WAVE]: '1.5', [WEIGHT]: '3' });

    expect(wave).toBe(3);
    expect(warnings[0]).toContain('falls back to helm.sh/hook-weight 3');
  });

  it('warns about an unparsable helm weight when it is the wave source', () => {
    const { wave, warnings } = waveWithWarnings({ [WEIGHT]: 'high' });

    expect(wave).toBe(0);
    expect(warnings).toEqual([
      'annotation helm.sh/hook-weight: "high" is not an integer (Go strconv.Atoi syntax); Argo CD falls back to wave 0',
    ]);
  });
});
