import { describe, expect, it } from 'vitest';
import { parseSyncRequest } from './sync-request.js';

const valid = {
  application: 'guestbook',
  operation: { prune: true, dryRun: false, syncOptions: ['CreateNamespace=true'], revision: 'v1.2.0' },
  initiator: { userId: 'U1', userName: 'alice' },
  target: { channel: 'C1', threadTs: '1700000000.000100' },
  requestKey: 'trigger-123',
};

describe('src/queue/sync-request parseSyncRequest', () => {
  it('accepts a complete request and keeps an absent report target as undefined', () => {
    expect(parseSyncRequest(valid)).toEqual(valid);
    const { target: _target, ...cli } = valid;
    const parsed = parseSyncRequest(cli);
    expect(parsed.target).toBeUndefined();
    expect('target' in parsed).toBe(true);
  });

  it('carries a /sync delete request (cascade, confirmed objects, plan hash) and rejects an unknown cascade or a missing hash', () => {
    const deletion = {
      cascade: 'background',
      confirmed: ['/PersistentVolumeClaim/shop/data'],
      planHash: '0123456789abcdef0123456789abcdef',
    };
    const parsed = parseSyncRequest(JSON.parse(JSON.stringify({ ...valid, deletion })));

    expect(parsed.deletion).toEqual(deletion);
    expect(parseSyncRequest(valid)).not.toHaveProperty('deletion');
    expect(() => parseSyncRequest({ ...valid, deletion: { ...deletion, cascade: 'sideways' } })).toThrow(
      /deletion\.cascade/,
    );
    const { planHash: _hash, ...unhashed } = deletion;
    expect(() => parseSyncRequest({ ...valid, deletion: unhashed })).toThrow(/deletion\.planHash/);
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
          /application: must be an Argo CD Application name.*operation\.prune.*requestKey/,
        ),
      }),
    );
  });
});
