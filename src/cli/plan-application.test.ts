import { describe, expect, it } from 'vitest';
import { testApplication } from '../../test/support/test-application.js';
import { refOf } from './plan-application.js';

describe('refOf', () => {
  it('gives the ref of a git source, the range of a chart, and nothing for a local folder', () => {
    const git = testApplication({ source: { repoURL: 'https://git.example/a.git', targetRevision: 'main' } });
    const chart = testApplication({
      source: { repoURL: 'https://charts.example', chart: 'redis', targetRevision: '17.x' },
    });

    expect(refOf(git, undefined)).toEqual({ ref: 'main' });
    expect(refOf(git, 'v2')).toEqual({ ref: 'v2' });
    expect(refOf(chart, undefined)).toEqual({ ref: '17.x' });
    expect(refOf(testApplication(), undefined)).toEqual({});
  });

  it("gives a multi-source Application's refs per source, joined by ; (a revision asked for a source wins)", () => {
    const sources = [
      { repoURL: 'https://charts.example', chart: 'redis', targetRevision: '17.x' },
      { repoURL: 'https://git.example/values.git', ref: 'values' },
      { repoURL: '', path: 'local' },
    ];
    const app = testApplication({ source: sources[0]!, sources });

    expect(refOf(app, undefined)).toEqual({ ref: '17.x;HEAD;' });
    expect(refOf(app, ';v1;')).toEqual({ ref: '17.x;v1;' });
  });
});
