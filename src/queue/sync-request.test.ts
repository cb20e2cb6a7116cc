import { describe, expect, it } from 'vitest';
import { parseSyncRequest } from './sync-request.js';

const valid = {
  application: 'guestbook',
  operation: { prune: true, dryRun: false, syncOptions: ['CreateNamespace=true'], revision: 'v1.2.0' },
  initiator: { userId: 'U1', userName: 'alice' },
  target: { channel: 'C1', threadTs: '1700000000.000100' },
  requestKey: 'trigger-123',
};

const { operation: _operation, ...job } = valid;
const deletion = {
  cascade: 'background',
  confirmed: ['/PersistentVolumeClaim/shop/data'],
  planHash: '0123456789abcdef0123456789abcdef',
  revision: 'a'.repeat(40),
};

describe('src/queue/sync-request parseSyncRequest', () => {
  it('accepts a complete request and keeps an absent report target as undefined', () => {
    expect(parseSyncRequest(valid)).toEqual(valid);
    const { target: _target, ...cli } = valid;
    const parsed = parseSyncRequest(cli);
    expect(parsed.target).toBeUndefined();
    expect('target' in parsed).toBe(true);
  });

  it('reads a deletion job (cascade, confirmed objects, plan hash, hooks revision): no operation, and rejects an unknown cascade or a missing hash', () => {
    const parsed = parseSyncRequest(JSON.parse(JSON.stringify({ ...job, deletion })));

    expect(parsed).toEqual({ ...job, deletion });
    expect(parsed).not.toHaveProperty('operation');
    expect(parseSyncRequest(valid)).not.toHaveProperty('deletion');
    expect(() => parseSyncRequest({ ...job, deletion: { ...deletion, cascade: 'sideways' } })).toThrow(
      /deletion\.cascade/,
    );
    const { planHash: _hash, ...unhashed } = deletion;
    expect(() => parseSyncRequest({ ...job, deletion: unhashed })).toThrow(/deletion\.planHash/);
  });

  it('reads a deletion queued before the upgrade (a sync request whose operation synced nothing) as a deletion job, its revision the hooks revision', () => {
    const { revision, ...asked } = deletion;
    // What `/sync delete` queued (its operation syncing nothing), and a removed generated Application (at a commit).
    const slack = { ...job, operation: { prune: false, dryRun: false, syncOptions: [] }, deletion: asked };
    const removal = { ...slack, operation: { ...slack.operation, revision } };

    expect(parseSyncRequest(slack)).toEqual({ ...job, deletion: asked });
    expect(parseSyncRequest(removal)).toEqual({ ...job, deletion });
    expect(parseSyncRequest(removal)).not.toHaveProperty('operation');
  });

  it('refuses a deletion whose operation would sync something, naming the field', () => {
    for (const [operation, field] of [
      [
        { ...valid.operation, revision: undefined, syncOptions: [] },
        /operation\.prune: a deletion prunes nothing/,
      ],
      [{ prune: false, dryRun: true, syncOptions: [] }, /operation\.dryRun: a deletion is no dry run/],
      [
        { prune: false, dryRun: false, syncOptions: ['Replace=true'] },
        /operation\.syncOptions: a deletion has no sync options/,
      ],
      [
        { prune: false, dryRun: false, syncOptions: [], resources: [] },
        /operation: Unrecognized key: "resources"/,
      ],
    ] as const) {
      expect(() => parseSyncRequest({ ...job, operation, deletion })).toThrow(field);
    }
  });

  it('reads a request with a `deletion` of any value as a deletion job: a malformed one is refused, not run as a sync', () => {
    for (const malformed of [null, false, 0, '']) {
      expect(() => parseSyncRequest({ ...valid, deletion: malformed })).toThrow(/deletion: /);
    }
  });

  it("refuses a deletion that carries a sync's own field, naming it, instead of dropping it", () => {
    for (const [field, value] of [
      ['rollback', { id: 1, revision: 'abc' }],
      ['promotion', { pipeline: 'p', from: 'staging', revision: 'abc' }],
      ['retry', { attempt: 2, delayMs: 0, reason: 'x' }],
      ['trigger', 'push abc'],
      ['appOfApps', {}],
      ['rollout', {}],
    ] as const) {
      expect(() => parseSyncRequest({ ...job, deletion, [field]: value })).toThrow(
        new RegExp(`${field}: a deletion has no ${field}`),
      );
    }
  });

  it('names every bad field in one BotError', () => {
    const bad = {
      ...valid,
      application: 'Bad_Name',
      operation: { ...valid.operation, prune: 'yes' },
      requestKey: '',
    };
    expect(() => parseSyncRequest(bad)).toThrow(
      expect.objectContaining({
        code: 'invalid_command',
        message: expect.stringMatching(
          /application: must be an Argo CD Application name.*requestKey.*operation\.prune/,
        ),
      }),
    );
  });
});
