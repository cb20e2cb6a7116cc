import { describe, expect, it } from 'vitest';
import { BotError } from '../domain/index.js';
import { userFacingMessage } from './user-facing-error.js';

describe('userFacingMessage', () => {
  it('gives the message of a BotError and of a failed system call, and nothing for a bug', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3000'), {
      code: 'EADDRINUSE',
      syscall: 'listen',
    });
    expect(userFacingMessage(new BotError('invalid_config', 'invalid settings: x'))).toBe(
      'invalid settings: x',
    );
    expect(userFacingMessage(inUse)).toBe('listen EADDRINUSE: address already in use 127.0.0.1:3000');
    expect(userFacingMessage(new TypeError('x is undefined'))).toBeUndefined();
  });
});
