import { describe, expect, it } from 'vitest';
import {
  escapeMrkdwn,
  formatClock,
  formatDestination,
  formatDuration,
  formatSource,
  listNames,
  ordinal,
  packLines,
  truncate,
} from './format.js';

describe('src/slack/messages/format', () => {
  it.each([
    [200, '0.2 s'],
    [9_940, '9.9 s'],
    [31_000, '31 s'],
    [42_400, '42 s'],
    [67_000, '1:07'],
    [3_723_000, '1:02:03'],
    [-5, '0 s'],
  ])('formatDuration(%i) is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('formatClock pads seconds as a header clock', () => {
    expect([formatClock(42_000), formatClock(67_900), formatClock(3_600_000)]).toEqual([
      '0:42',
      '1:07',
      '1:00:00',
    ]);
  });

  it('ordinal handles the teens', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 112].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '112th',
    ]);
  });

  it('escapes mrkdwn control characters and truncates with an ellipsis', () => {
    expect(escapeMrkdwn('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
  });

  it('lists at most N names then "and N more"', () => {
    expect(listNames(['a', 'b', 'c'], 2)).toBe('a, b and 1 more');
  });

  it('packs lines into bounded chunks without splitting a line', () => {
    expect(packLines(['aaaa', 'bbbb', 'cccc'], 9, 10)).toEqual(['aaaa\nbbbb', 'cccc']);
    expect(packLines(['aaaa', 'bbbb', 'cccc'], 4, 2)).toEqual(['aaaa', 'bbbb']);
  });
});

describe('src/slack/messages/format (Application fields)', () => {
  it('formats destinations and sources as Argo CD users read them', () => {
    expect(formatDestination({ server: 'https://kubernetes.default.svc', namespace: 'guestbook' })).toBe(
      'in-cluster/guestbook',
    );
    expect(formatDestination({ name: 'prod-eu', namespace: 'pay' })).toBe('prod-eu/pay');
    expect(
      formatSource({
        repoURL: 'https://github.com/argoproj/argocd-example-apps',
        path: 'guestbook',
        targetRevision: 'HEAD',
      }),
    ).toBe('https://github.com/argoproj/argocd-example-apps#guestbook@HEAD');
    expect(
      formatSource({ repoURL: 'https://charts.example.com', chart: 'web', targetRevision: '1.2.3' }),
    ).toBe('https://charts.example.com chart web@1.2.3');
  });
});
