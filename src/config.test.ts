import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { BotError } from './domain/errors.js';

describe('src/config', () => {
  it('applies defaults for an empty environment', () => {
    const config = loadConfig({});

    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.port).toBe(3000);
    expect(config.slack.appToken).toBeUndefined();
  });

  it('rejects a malformed variable with an error naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(BotError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
