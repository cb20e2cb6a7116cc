/**
 * Which removals of generated Applications were announced (an ApplicationSet no longer generates the Application):
 * one announcement per removal across bot replicas, each of which notices the removal at its own refresh. In Redis
 * under `<prefix>:appset-removed:<application>` (SET NX EX, `prefix` = WAVESYNC_QUEUE_PREFIX).
 */
import type { RedisClient } from '../queue/index.js';

/** How long one removal is remembered as announced (replicas notice it within a refresh interval). */
const ANNOUNCED_SECONDS = 3600;

export interface RemovalAnnouncements {
  /** Claim the announcement of `application`'s removal: true for the one caller that is to make it. */
  claim(application: string): Promise<boolean>;
}

export function redisRemovalAnnouncements(redis: RedisClient, prefix: string): RemovalAnnouncements {
  const key = (application: string) => `${prefix}:appset-removed:${application}`;
  return {
    claim: async (application) =>
      (await redis.set(key(application), '1', 'EX', ANNOUNCED_SECONDS, 'NX')) === 'OK',
  };
}
