import { describe, expect, it } from 'vitest';
import { planDeletion, planHash } from '../../deletion/index.js';
import { decodeDeletionButtonValue, encodeDeletionButtonValue, parseDeleteArgs } from './delete-command.js';

describe('parseDeleteArgs', () => {
  it('reads the application, --cascade (either form) and --break-glass', () => {
    expect(parseDeleteArgs(['shop'])).toEqual({ application: 'shop' });
    expect(parseDeleteArgs(['shop', '--cascade=orphan'])).toEqual({ application: 'shop', cascade: 'orphan' });
    expect(parseDeleteArgs(['shop', '--cascade', 'background', '--break-glass', 'INC-7'])).toEqual({
      application: 'shop',
      cascade: 'background',
      breakGlassReason: 'INC-7',
    });
  });

  it('explains a missing application, a flag first, a bad cascade, unknown flags and extra words', () => {
    expect(parseDeleteArgs([])).toMatchObject({ problem: 'Which application should I delete?' });
    expect(parseDeleteArgs(['--cascade=orphan'])).toMatchObject({
      problem: expect.stringContaining('Name the application first'),
    });
    expect(parseDeleteArgs(['shop', '--cascade=false'])).toMatchObject({
      problem: expect.stringContaining('--cascade must be foreground, background or orphan'),
    });
    expect(parseDeleteArgs(['shop', '--prune'])).toMatchObject({
      problem: expect.stringContaining('Bad flag `--prune`'),
    });
    expect(parseDeleteArgs(['shop', '--cascade=orphan', '--cascade', 'foreground'])).toMatchObject({
      problem: '--cascade is given 2 times (`orphan`, `foreground`): give it once.',
    });
    expect(parseDeleteArgs(['shop', '--break-glass', 'a', '--break-glass=b'])).toMatchObject({
      problem: expect.stringContaining('--break-glass is given 2 times'),
    });
    expect(parseDeleteArgs(['shop', 'web'])).toMatchObject({
      problem: expect.stringContaining('Unexpected `web`'),
    });
    expect(parseDeleteArgs(['shop', '--break-glass', ' '])).toMatchObject({
      problem: expect.stringContaining('needs a reason'),
    });
    // The reason travels in the Delete button's value (Slack: ≤ 2000 characters).
    expect(parseDeleteArgs(['shop', '--break-glass', 'x'.repeat(301)])).toMatchObject({
      problem: 'The --break-glass reason is 301 characters; keep it to 300 (a ticket and a sentence).',
    });
    expect(parseDeleteArgs(['shop', '--break-glass', 'x'.repeat(300)])).toMatchObject({
      breakGlassReason: 'x'.repeat(300),
    });
  });
});

describe('deletion button values and plan hashes', () => {
  it('round-trips a value and refuses foreign ones', () => {
    const value = { application: 'shop', cascade: 'background' as const, planHash: 'abc' };
    expect(decodeDeletionButtonValue(encodeDeletionButtonValue(value))).toEqual(value);
    expect(decodeDeletionButtonValue('{"application":"shop"}')).toBeUndefined();
    expect(
      decodeDeletionButtonValue('{"application":"shop","planHash":"x","cascade":"sideways"}'),
    ).toBeUndefined();
    expect(decodeDeletionButtonValue('not json')).toBeUndefined();
  });

  it('changes when what would be deleted changes', () => {
    const app = { name: 'shop', namespace: 'argocd', finalizers: ['resources-finalizer.argocd.argoproj.io'] };
    const cm = (name: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'shop' },
    });
    const one = planHash(planDeletion(app, [cm('a')]));
    expect(planHash(planDeletion(app, [cm('a')]))).toBe(one);
    expect(planHash(planDeletion(app, [cm('a'), cm('b')]))).not.toBe(one);
    expect(planHash(planDeletion(app, [cm('a')], 'orphan'))).not.toBe(one);
  });
});
