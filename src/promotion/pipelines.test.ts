import { describe, expect, it } from 'vitest';
import { testApplication } from '../../test/support/test-application.js';
import { BotError } from '../domain/index.js';
import { parseSettings } from '../settings/index.js';
import { assertPromotionPipelines, pipelineProblems, resolvePipeline, stageOf } from './pipelines.js';

const FILE = '/etc/wavesync/wavesync.yaml';

function problemsOf(text: string): string {
  try {
    parseSettings(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BotError);
    return (error as BotError).message;
  }
  throw new Error('expected invalid settings');
}

const git = (path: string) => ({
  repoURL: 'https://git.example.com/guestbook.git',
  path,
  targetRevision: 'main',
});

describe('promotion.pipelines in wavesync.yaml', () => {
  it('reads stages and verify, with defaults', () => {
    const settings = parseSettings(
      [
        'promotion:',
        '  pipelines:',
        '    guestbook:',
        '      stages: [guestbook-dev, guestbook-staging, guestbook-prod]',
        '      verify: { healthyForMinutes: 30, postSyncHook: Job/smoke-test }',
        '    web: { stages: [web-staging, web-prod] }',
      ].join('\n'),
      FILE,
    );
    expect(settings.promotion.checkIntervalSeconds).toBe(30);
    expect(settings.promotion.pipelines.guestbook).toEqual({
      stages: ['guestbook-dev', 'guestbook-staging', 'guestbook-prod'],
      verify: { healthyForMinutes: 30, postSyncHook: 'Job/smoke-test' },
    });
    expect(settings.promotion.pipelines.web?.verify).toEqual({ healthyForMinutes: 30 });
    expect(resolvePipeline(settings, 'guestbook')?.name).toBe('guestbook');
    expect(resolvePipeline(settings, 'web-prod')?.name).toBe('web');
    expect(resolvePipeline(settings, 'nope')).toBeUndefined();
    expect(stageOf(settings, 'guestbook-staging')).toMatchObject({
      index: 1,
      pipeline: { name: 'guestbook' },
    });
    expect(parseSettings('applications: []', FILE).promotion).toEqual({
      checkIntervalSeconds: 30,
      pipelines: {},
    });
  });

  it('refuses unknown keys, one stage, a stage twice or in two pipelines, and bad verify values, by path', () => {
    expect(problemsOf('promotion: { pipelines: { g: { stages: [a, b], verfy: {} } } }')).toContain(
      'promotion.pipelines.g',
    );
    expect(problemsOf('promotion: { pipelines: { g: { stages: [a, b], verfy: {} } } }')).toContain('verfy');
    expect(problemsOf('promotion: { pipelines: { g: { stages: [a] } } }')).toContain(
      'a pipeline needs at least two stages',
    );
    expect(problemsOf('promotion: { pipelines: { g: { stages: [a, b, a] } } }')).toContain(
      'a is listed twice',
    );
    expect(
      problemsOf('promotion: { pipelines: { g: { stages: [a, b] }, h: { stages: [b, c] } } }'),
    ).toContain('b is already a stage of pipeline g');
    expect(
      problemsOf('promotion: { pipelines: { g: { stages: [a, b], verify: { healthyForMinutes: -1 } } } }'),
    ).toContain('promotion.pipelines.g.verify.healthyForMinutes');
    expect(
      problemsOf('promotion: { pipelines: { g: { stages: [a, b], verify: { postSyncHook: smoke } } } }'),
    ).toContain('must be Kind/name');
    expect(problemsOf('promotion: { pipelines: { g: { stages: [a, b], verify: { check: x } } } }')).toContain(
      'check',
    );
  });

  it('checks the stages against the Applications: known, not local, same sources', () => {
    const settings = parseSettings(
      [
        'promotion:',
        '  pipelines:',
        '    g: { stages: [g-staging, g-prod, g-typo] }',
        '    l: { stages: [l-staging, l-local] }',
        '    r: { stages: [r-staging, r-other-repo] }',
        '    c: { stages: [c-staging, c-other-chart] }',
        '    m: { stages: [m-staging, m-one] }',
      ].join('\n'),
      FILE,
    );
    const chart = { repoURL: 'https://charts.example.com', chart: 'web', targetRevision: '1.x' };
    const apps = [
      testApplication({ name: 'g-staging', source: git('staging') }),
      testApplication({ name: 'g-prod', source: git('prod') }),
      testApplication({ name: 'l-staging', source: git('staging') }),
      testApplication({ name: 'l-local', source: { repoURL: '', path: 'local' }, origin: 'apps/l.yaml:1' }),
      testApplication({ name: 'r-staging', source: git('staging') }),
      testApplication({
        name: 'r-other-repo',
        source: { ...git('prod'), repoURL: 'https://git.example.com/x.git' },
      }),
      testApplication({ name: 'c-staging', source: chart }),
      testApplication({ name: 'c-other-chart', source: { ...chart, chart: 'api' } }),
      testApplication({ name: 'm-staging', source: git('a'), sources: [git('a'), chart] }),
      testApplication({ name: 'm-one', source: git('b') }),
    ];
    const problems = pipelineProblems(settings, apps);
    expect(problems).toEqual([
      expect.stringContaining(
        `${FILE}: promotion.pipelines.g.stages[2]: no Application named g-typo (known: `,
      ),
      expect.stringContaining(
        'promotion.pipelines.l.stages[1]: l-local (apps/l.yaml:1) is read from a local folder',
      ),
      expect.stringContaining(
        "promotion.pipelines.r.stages[1]: r-other-repo source.repoURL is https://git.example.com/x.git and r-staging's https://git.example.com/guestbook.git",
      ),
      expect.stringContaining("c-other-chart source.chart is api and c-staging's web"),
      expect.stringContaining('m-one has 1 source(s) and m-staging 2'),
    ]);
    expect(() => assertPromotionPipelines(settings, apps)).toThrow(/no Application named g-typo/);
    expect(() => assertPromotionPipelines(settings, apps.slice(0, 2).concat(apps.slice(4, 6)))).toThrow(
      BotError,
    );
  });
});
