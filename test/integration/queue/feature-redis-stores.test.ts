/**
 * The Redis stores main/start-bot.ts takes from the features that own their data — the Roll back buttons' claims
 * (rollback/), the "main moved" Sync buttons' claims (revisions/) and the announced ApplicationSet removals
 * (applications/) — write the keys and expiries docs/architecture.md's Redis table gives them, on the real Redis.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { redisRemovalAnnouncements } from '../../../src/appset-removal/index.js';
import { redisRevisionNoticeClaims } from '../../../src/revisions/index.js';
import { redisRollbackClaims } from '../../../src/rollback/index.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const DAY_MS = 24 * 3_600_000;
const kim = { userId: 'U0KIM', userName: 'kim' };
const lee = { userId: 'U0LEE', userName: 'lee' };

describe('the click claims and removal announcements of the features, in Redis', () => {
  const redis = testRedis();
  const prefix = uniquePrefix();
  afterEach(async () => deleteKeys(redis, prefix));
  afterAll(async () => void (await redis.quit()));

  it.each([
    ['rollback', redisRollbackClaims, 'rollback:click'],
    ['revisions', redisRevisionNoticeClaims, 'revisions:click'],
  ] as const)(
    '%s: the first click claims <prefix>:%s:<key> for 7 days; a later one learns who; a released claim is free again',
    async (_, store, base) => {
      const claims = store(redis, prefix);

      expect(await claims.claim('k1', kim)).toBeUndefined();
      expect(await claims.claim('k1', lee)).toEqual(kim);
      const ttl = await redis.pttl(`${prefix}:${base}:k1`);
      expect(ttl).toBeGreaterThan(7 * DAY_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(7 * DAY_MS);

      await claims.release('k1');
      expect(await claims.claim('k1', lee)).toBeUndefined();
    },
  );

  it('a removal is announced once: <prefix>:appset-removed:<application> for an hour', async () => {
    const announcements = redisRemovalAnnouncements(redis, prefix);

    expect(await announcements.claim('web-staging')).toBe(true);
    expect(await announcements.claim('web-staging')).toBe(false);
    expect(await announcements.claim('web-prod')).toBe(true);
    const ttl = await redis.ttl(`${prefix}:appset-removed:web-staging`);
    expect(ttl).toBeGreaterThan(3600 - 60);
    expect(ttl).toBeLessThanOrEqual(3600);
  });
});
