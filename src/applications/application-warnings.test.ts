import { describe, expect, it } from 'vitest';
import { applicationWarnings } from './application-warnings.js';
import { parseApplicationFile } from './parse-applications.js';

describe('applicationWarnings', () => {
  it('names each sync option Argo CD does not know, at the Application file and line, with the closest one', () => {
    const app = {
      name: 'shop',
      origin: 'apps/shop.yaml:12',
      syncPolicy: { syncOptions: ['CreateNamespace=true', 'CreateNamespce=true', 'PruneLast=yes'] },
    };
    expect(applicationWarnings(app)).toEqual([
      {
        file: 'apps/shop.yaml',
        line: 12,
        message:
          'Application shop: spec.syncPolicy.syncOptions: unknown sync option "CreateNamespce=true" (did you mean CreateNamespace=true?); Argo CD ignores it',
      },
      {
        file: 'apps/shop.yaml',
        line: 12,
        message:
          'Application shop: spec.syncPolicy.syncOptions: unknown sync option "PruneLast=yes" (valid: PruneLast=true, PruneLast=false); Argo CD ignores it',
      },
    ]);
    expect(applicationWarnings({ name: 'ok', origin: 'x.yaml:1' })).toEqual([]);
  });

  it("a generated Application's warnings are at its ApplicationSet's file and line, and name the ApplicationSet", () => {
    const app = {
      name: 'dev-shop',
      origin: 'appsets/shop.yaml:3 (ApplicationSet shop)',
      syncPolicy: { syncOptions: ['CreateNamespce=true'] },
    };
    expect(applicationWarnings(app)).toEqual([
      {
        file: 'appsets/shop.yaml',
        line: 3,
        message:
          'Application dev-shop (ApplicationSet shop): spec.syncPolicy.syncOptions: unknown sync option "CreateNamespce=true" (did you mean CreateNamespace=true?); Argo CD ignores it',
      },
    ]);
  });

  it('names a malformed notifications.argoproj.io/subscriptions annotation at the Application file, without throwing', () => {
    const app = {
      name: 'shop',
      origin: 'apps/shop.yaml:3',
      annotations: {
        'notifications.argoproj.io/subscriptions': '- trigger: [on-deployed\n  destinations: x',
      },
    };
    const [warning, ...rest] = applicationWarnings(app);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ file: 'apps/shop.yaml', line: 3 });
    expect(warning?.message).toMatch(
      /^Application shop: metadata\.annotations\.notifications\.argoproj\.io\/subscriptions: not valid YAML \(.+\); ignored$/,
    );
  });

  it('names spec.source as ignored when spec.sources is given too (Argo CD uses spec.sources)', () => {
    const text =
      'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: { name: both }\nspec:\n  destination: {}\n' +
      '  source: { repoURL: https://git.example.com/a.git, path: old }\n' +
      '  sources:\n    - { repoURL: https://git.example.com/a.git, path: new }\n';
    const [app] = parseApplicationFile(text, 'both.yaml').applications;

    expect(app?.source.path).toBe('new');
    expect(applicationWarnings(app!)).toEqual([
      {
        file: 'both.yaml',
        line: 1,
        message:
          'Application both: spec.source is ignored because spec.sources is given (Argo CD uses spec.sources); remove one of them',
      },
    ]);
  });
});
