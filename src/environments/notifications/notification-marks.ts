/**
 * NotificationMarks: what the failure notifier (failure-notifier.ts) remembers between jobs, retries and bot
 * replicas, so each notice is posted once and "recovered" follows only a failure notice:
 * - a claim on a failure notice (per job) and on a subscription notice (per `oncePerKey`, trigger and channel),
 *   held for NOTIFIED_TTL_SECONDS, released again when Slack refused the post so a later attempt delivers it;
 * - an Application's "failing" mark: set when its failure notice was delivered, cleared (and reported) by its
 *   next good sync.
 * Implementations: redisNotificationMarks (redis-notification-marks.ts, shared by every replica) and
 * memoryNotificationMarks (this process only: unit tests).
 */

import type { NotificationTrigger } from '../../applications/index.js';

/** Notified marks live 30 days (seconds): longer than any retry or resume of one job. */
export const NOTIFIED_TTL_SECONDS = 30 * 86_400;

export interface NotificationMarks {
  /** Claim the failure notice of job `jobId` for NOTIFIED_TTL_SECONDS: true when this call claimed it. */
  claimFailureNotice(jobId: string): Promise<boolean>;
  /** Give up the claim of `jobId`'s failure notice (not delivered: a retry of the job may try again). */
  releaseFailureNotice(jobId: string): Promise<void>;
  /**
   * Claim `trigger`'s notice to `channel` once per `oncePer` (oncePerKey: the job id, or the Application and
   * revision for `on-deployed`) for NOTIFIED_TTL_SECONDS: true when this call claimed it.
   */
  claimSubscriptionNotice(oncePer: string, trigger: NotificationTrigger, channel: string): Promise<boolean>;
  /** Give up a subscription notice's claim (Slack refused the post: a later attempt may deliver it). */
  releaseSubscriptionNotice(oncePer: string, trigger: NotificationTrigger, channel: string): Promise<void>;
  /** Mark `application` as failing since job `jobId`'s failure notice (no expiry). */
  markFailing(application: string, jobId: string): Promise<void>;
  /** Clear `application`'s failing mark: true when it was marked (its next good sync posts "recovered"). */
  clearFailing(application: string): Promise<boolean>;
}

/**
 * NotificationMarks in this process only, with the Redis marks' expiry: a claim lapses NOTIFIED_TTL_SECONDS after
 * it was taken, by `now()` (epoch milliseconds; default Date.now).
 */
export function memoryNotificationMarks(now: () => number = Date.now): NotificationMarks {
  /** Claim key → expiry (epoch ms). */
  const claims = new Map<string, number>();
  const failing = new Map<string, string>();
  const claim = (key: string): boolean => {
    const expiry = claims.get(key);
    if (expiry !== undefined && expiry > now()) return false;
    claims.set(key, now() + NOTIFIED_TTL_SECONDS * 1000);
    return true;
  };
  const subscriptionKey = (oncePer: string, trigger: string, channel: string) =>
    `sent:${oncePer}:${trigger}:${channel}`;
  return {
    claimFailureNotice: async (jobId) => claim(`notified:${jobId}`),
    releaseFailureNotice: async (jobId) => void claims.delete(`notified:${jobId}`),
    claimSubscriptionNotice: async (oncePer, trigger, channel) =>
      claim(subscriptionKey(oncePer, trigger, channel)),
    releaseSubscriptionNotice: async (oncePer, trigger, channel) =>
      void claims.delete(subscriptionKey(oncePer, trigger, channel)),
    markFailing: async (application, jobId) => void failing.set(application, jobId),
    clearFailing: async (application) => failing.delete(application),
  };
}
