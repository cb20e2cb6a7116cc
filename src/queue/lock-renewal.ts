/**
 * How often a worker renews its jobs' BullMQ locks, so that a live worker keeps its job through any pause (a
 * starved or busy event loop, a long GC, a slow Redis answer) shorter than most of the lock, not only half of it.
 *
 * BullMQ's LockManager (node_modules/bullmq/dist/esm/classes/lock-manager.js) ticks every `lockRenewTime / 2` ms
 * and renews a job only when its last renewal is strictly older than `lockRenewTime / 2` (whole ms), so a tick
 * that comes less than a millisecond late skips the job to the next one. With the default `lockRenewTime =
 * lockDuration / 2`, renewals come every `lockDuration / 4` to `lockDuration / 2` ms: a pause of only half the lock can
 * let it lapse, and BullMQ's stalled-job check then hands the job of a live worker to the next worker that asks
 * — possibly the same one (seen in test/e2e/kube-outage.test.ts with the 3 s lock of the e2e stack).
 */

/** `lockRenewTime` is the lock divided by this: renewals every 1/20 to 1/10 of it, so a pause of ~9/10 keeps it. */
const RENEWALS_PER_LOCK = 10;

/** Renewing more often than this (ms) only adds Redis round trips. */
const MIN_RENEW_MS = 50;

/**
 * `lockRenewTime` (ms) for BullMQ's Worker given its `lockDurationMs`: a tenth of the lock (renewals every 5–10 %
 * of it, one `extendLocks` script for all of a worker's jobs), so the lock survives a pause of up to about
 * 9/10 of `lockDurationMs` (e.g. 27 s of the default 30 s, 2.7 s of a 3 s test lock). Whole ms, at
 * least 50 and at most half the lock (BullMQ's own default).
 */
export function lockRenewTimeFor(lockDurationMs: number): number {
  const renewMs = Math.floor(lockDurationMs / RENEWALS_PER_LOCK);
  return Math.min(Math.max(renewMs, MIN_RENEW_MS), Math.floor(lockDurationMs / 2));
}
