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

  it('reads the queue prefix, worker tuning and admin credentials; the admin UI is off without a password', () => {
    const defaults = loadConfig({});
    const config = loadConfig({
      WAVESYNC_QUEUE_PREFIX: 'wavesync-demo-1',
      WAVESYNC_WORKER_CONCURRENCY: '8',
      WAVESYNC_WORKER_LOCK_MS: '5000',
      WAVESYNC_ADMIN_PASSWORD: 'pw',
    });

    expect(defaults.queue.prefix).toBe('bull');
    expect(defaults.worker).toEqual({ concurrency: 4, lockDurationMs: 30_000 });
    expect(defaults.admin).toBeUndefined();
    expect(config.queue.prefix).toBe('wavesync-demo-1');
    expect(config.worker).toEqual({ concurrency: 8, lockDurationMs: 5000 });
    expect(config.admin).toEqual({ user: 'admin', password: 'pw' });
  });

  it('treats an empty variable as unset, so REDIS_URL= falls back to the default', () => {
    const config = loadConfig({ REDIS_URL: '', PORT: '' });

    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.port).toBe(3000);
  });
});
