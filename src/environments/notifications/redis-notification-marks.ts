/**
 * NotificationMarks in Redis, shared by every bot replica of one installation (`prefix` = WAVESYNC_QUEUE_PREFIX,
 * as the queue and approvals use):
 * - `<prefix>:notify:notified:<jobId>`: a job's failure notice claimed (SET '1' EX NOTIFIED_TTL_SECONDS NX; DEL);
 * - `<prefix>:notify:sent:<oncePer>:<trigger>:<channel>`: a subscription notice claimed (the same SET NX; DEL);
 * - `<prefix>:notify:failing:<application>`: the job id of the Application's last failure notice (SET, no
 *   expiry; GETDEL).
 * Every method rejects when Redis is unreachable.
 */

import type { RedisClient } from '../../queue/index.js';
import { NOTIFIED_TTL_SECONDS, type NotificationMarks } from './notification-marks.js';

export function redisNotificationMarks(redis: RedisClient, prefix: string): NotificationMarks {
  const notifiedKey = (jobId: string) => `${prefix}:notify:notified:${jobId}`;
  const sentKey = (oncePer: string, trigger: string, channel: string) =>
    `${prefix}:notify:sent:${oncePer}:${trigger}:${channel}`;
  const failingKey = (application: string) => `${prefix}:notify:failing:${application}`;
  const claim = async (key: string) => (await redis.set(key, '1', 'EX', NOTIFIED_TTL_SECONDS, 'NX')) === 'OK';
  return {
    claimFailureNotice: (jobId) => claim(notifiedKey(jobId)),
    async releaseFailureNotice(jobId) {
      await redis.del(notifiedKey(jobId));
    },
    claimSubscriptionNotice: (oncePer, trigger, channel) => claim(sentKey(oncePer, trigger, channel)),
    async releaseSubscriptionNotice(oncePer, trigger, channel) {
      await redis.del(sentKey(oncePer, trigger, channel));
    },
    async markFailing(application, jobId) {
      await redis.set(failingKey(application), jobId);
    },
    clearFailing: async (application) => (await redis.getdel(failingKey(application))) !== null,
  };
}
