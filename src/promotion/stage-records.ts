import type { PromotionRef } from '../domain/index.js';

/**
 * What wavesync remembers of each stage of a promotion pipeline (kept in Redis by ./redis-promotion-store.ts):
 *
 * - the stage's **current sync** (`StageSync`): the revision its last sync put there and where verification of it
 *   stands — `verifying` (Succeeded; waiting to stay Synced and Healthy long enough), `verified`, or `failed` (the
 *   sync failed, ended Degraded, or its PostSync check did not pass: never verified);
 * - the **verified revisions** (`VerifiedRevision`), newest first: what `/sync promote` may move to the next stage;
 * - the **pin** (`Pin`) of a stage a promotion synced: the revision drift detection and automated syncs hold it at
 *   until the next promotion or a person's sync.
 *
 * Times are ms since the epoch, taken from the process clock when something happened; nothing here expires at an
 * instant (the verified list lives for a duration after its last write).
 */

type StageSyncStatus = 'verifying' | 'verified' | 'failed';

export interface StageSync {
  /** The exact revision synced: each source's git SHA or chart version, joined by `;`. */
  revision: string;
  jobId: string;
  /** When the sync ended. */
  syncedAt: number;
  status: StageSyncStatus;
  /**
   * Since when the stage has been seen Synced and Healthy without a break (undefined: not Healthy when last
   * looked at). Verified once this is `healthyForMinutes` old.
   */
  healthySince?: number;
  /** When it was last looked at (the sync's end, then each check). */
  checkedAt: number;
  /** What the last look found wrong (`Progressing: …`, `OutOfSync: 2 resource(s)`), or why it failed. */
  problem?: string;
  /** `PostSync Job/smoke-test passed`, when the pipeline's verify names a hook. */
  hook?: string;
  /** When verified; how long it had been Healthy then. */
  verifiedAt?: number;
  healthyForMs?: number;
  /** The promotion that synced it, when this sync was one. */
  promotion?: PromotionRef;
}

/** A revision verified in a stage. */
export interface VerifiedRevision {
  revision: string;
  /** The stage it was verified in. */
  stage: string;
  jobId: string;
  syncedAt: number;
  verifiedAt: number;
  /** Synced and Healthy this long when verified. */
  healthyForMs: number;
  hook?: string;
}

/** A stage held at a promoted revision. */
export interface Pin {
  revision: string;
  pipeline: string;
  /** The stage the revision was promoted from. */
  from: string;
  jobId: string;
  pinnedAt: number;
}

/** Where stage records live. Every method rejects when Redis cannot be reached. */
export interface PromotionStore {
  stage(application: string): Promise<StageSync | undefined>;
  /**
   * Replace the stage's current sync with what `update` makes of it (undefined: forget it), atomically: when
   * another process changed it in between, `update` runs again on the new value. A result that is `verified` and
   * was not before is also added to the verified revisions, in the same step.
   */
  updateStage(
    application: string,
    update: (current: StageSync | undefined) => StageSync | undefined,
  ): Promise<StageSync | undefined>;
  /** The revisions verified in the stage, newest first. */
  verified(application: string): Promise<VerifiedRevision[]>;
  pin(application: string): Promise<Pin | undefined>;
  setPin(application: string, pin: Pin): Promise<void>;
  clearPin(application: string): Promise<void>;
}

/** `2 h`, `35 min`, `40 s`: how long, roughly, for people. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

/** `Healthy in guestbook-staging for 2 h, PostSync Job/smoke-test passed` — how a revision was verified. */
export function verificationText(v: Pick<VerifiedRevision, 'stage' | 'healthyForMs' | 'hook'>): string {
  return `Healthy in ${v.stage} for ${formatDuration(v.healthyForMs)}${v.hook ? `, ${v.hook}` : ''}`;
}
