import { describe, expect, it } from 'vitest';
import { BotError } from '../domain/index.js';
import { isTransientError, TransientError } from './queue-errors.js';

describe('src/queue/queue-errors isTransientError', () => {
  it('treats marked errors, socket errors and Redis connection loss as transient, also as causes', () => {
    expect(isTransientError(new TransientError('API server unreachable'))).toBe(true);
    expect(isTransientError(Object.assign(new Error('engine says'), { transient: true }))).toBe(true);
    expect(
      isTransientError(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(isTransientError(new Error('Connection is closed.'))).toBe(true);
    const wrapped = new Error('apply failed', {
      cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
    });
    expect(isTransientError(wrapped)).toBe(true);
  });

  it('treats everything else as final', () => {
    expect(isTransientError(new BotError('invalid_manifest', 'bad yaml'))).toBe(false);
    expect(isTransientError(new Error('hook failed'))).toBe(false);
    expect(isTransientError(Object.assign(new Error('x'), { transient: 'yes' }))).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
    expect(isTransientError('ECONNREFUSED')).toBe(false);
  });
});
