import { describe, expect, it } from 'vitest';
import { errorReport } from './cli/command-io.js';
import { loadConfig } from './config.js';
import { BotError } from './domain/index.js';

describe('src/config', () => {
  it('applies defaults for an empty environment', () => {
    const config = loadConfig({});

    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379' });
    expect(config.port).toBe(3000);
    expect(config.slack.appToken).toBeUndefined();
  });

  it('says which variables are bad, their values and what each takes, in the error format', () => {
    const error = (() => {
      try {
        loadConfig({ PORT: 'abc', WAVESYNC_WORKER_CONCURRENCY: '0' });
      } catch (e) {
        return e;
      }
    })();
    expect(errorReport(error, false).text).toBe(
      'error: invalid PORT, WAVESYNC_WORKER_CONCURRENCY (environment: PORT="abc", WAVESYNC_WORKER_CONCURRENCY="0"): ' +
        'set PORT to a port number from 0 to 65535, or unset it for the default 3000; ' +
        'set WAVESYNC_WORKER_CONCURRENCY to a whole number from 1 to 64, or unset it for the default 4\n',
    );
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

    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379' });
    expect(config.port).toBe(3000);
  });

  it('reads a Sentinel topology (sentinels, master group, passwords) and keeps the prefix', () => {
    const config = loadConfig({
      REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b:26380',
      REDIS_SENTINEL_MASTER: 'mymaster',
      REDIS_PASSWORD: 'pw',
      REDIS_SENTINEL_PASSWORD: 'spw',
    });

    expect(config.redis).toEqual({
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
      ],
      name: 'mymaster',
      password: 'pw',
      sentinelPassword: 'spw',
    });
    expect(config.queue.prefix).toBe('bull');
  });

  it('reads a Cluster topology and puts the prefix in a {hash tag} unless it has one', () => {
    const tagged = loadConfig({ REDIS_CLUSTER_NODES: 'a:7000,b:7001', WAVESYNC_QUEUE_PREFIX: 'x{ws}' });
    const plain = loadConfig({ REDIS_CLUSTER_NODES: '[::1]:7000' });

    expect(plain.redis).toEqual({ cluster: { nodes: [{ host: '::1', port: 7000 }] } });
    expect(plain.queue.prefix).toBe('{bull}');
    expect(tagged.queue.prefix).toBe('x{ws}');
  });

  it('refuses a bad node list, Sentinel without its master name, and two topologies at once, naming the variable', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:7000,b' })).toThrow(
      /REDIS_CLUSTER_NODES: "b" is not host:port/,
    );
    expect(() => loadConfig({ REDIS_SENTINELS: 'a:26379' })).toThrow(/REDIS_SENTINEL_MASTER/);
    expect(() =>
      loadConfig({ REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_MASTER: 'm', REDIS_CLUSTER_NODES: 'b:2' }),
    ).toThrow(/not both/);
  });
});
