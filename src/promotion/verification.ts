/**
 * Verification of a stage's sync (docs/promotion.md, "Verified"): a stage's sync that ended Succeeded — and, when
 * the pipeline names one, whose PostSync hook Succeeded — is `verifying`; once its Application has been seen
 * Synced (the live objects match the manifests at that exact revision) and Healthy without a break for
 * `verify.healthyForMinutes`, it is `verified` and its revision joins the stage's verified revisions. A look that
 * finds it OutOfSync or not Healthy restarts the clock. A sync that failed, ended Degraded or Missing, or whose
 * hook did not pass is `failed`: never verified.
 *
 * Pure transitions here; the worker's lifecycle (./promotion-lifecycle.ts) records each ended sync, the bot's
 * verifier (./verifier.ts) looks at the stages that are `verifying`.
 */
import type { HealthStatus, OperationState, PromotionRef } from '../domain/index.js';
import type { VerifySettings } from '../settings/index.js';
import type { StageSync } from './stage-records.js';

/** What one look at a stage found. */
export interface StageObservation {
  health: HealthStatus;
  /** Resources whose live state differs from the manifests at the stage's revision (0 = Synced). */
  outOfSync: number;
}

/** The ended sync of a stage, as the worker's lifecycle hook sees it. */
export interface EndedStageSync {
  jobId: string;
  state: OperationState;
  cancelled: boolean;
  promotion?: PromotionRef;
}

/** The StageSync an ended (not dry-run, not deletion) sync of a stage starts, at `now`. */
export function stageSyncEnded(ended: EndedStageSync, verify: VerifySettings, now: number): StageSync {
  const { state } = ended;
  const base = {
    revision: state.syncResult.revision || state.operation.revision || '',
    jobId: ended.jobId,
    syncedAt: now,
    checkedAt: now,
    ...(ended.promotion ? { promotion: ended.promotion } : {}),
  };
  if (ended.cancelled || state.phase !== 'Succeeded') {
    return {
      ...base,
      status: 'failed',
      problem: `the sync ended ${ended.cancelled ? 'cancelled' : state.phase}`,
    };
  }
  const hook = verify.postSyncHook === undefined ? undefined : hookOutcome(state, verify.postSyncHook);
  if (hook && !hook.passed) return { ...base, status: 'failed', problem: hook.text };
  const health = state.health?.status;
  if (health === 'Degraded' || health === 'Missing') {
    return { ...base, status: 'failed', problem: healthProblem(state.health!) };
  }
  const healthy = health === 'Healthy';
  const verifying: StageSync = {
    ...base,
    status: 'verifying',
    ...(healthy ? { healthySince: now } : { problem: healthProblem(state.health ?? { status: 'Unknown' }) }),
    ...(hook ? { hook: hook.text } : {}),
  };
  return healthy ? verifiedIfLongEnough(verifying, verify, now) : verifying;
}

/** A `verifying` stage after a look at `now`; any other status is left as it is. */
export function stageObserved(
  current: StageSync,
  seen: StageObservation,
  verify: VerifySettings,
  now: number,
): StageSync {
  if (current.status !== 'verifying') return current;
  const { problem: _problem, healthySince: _since, ...rest } = current;
  if (seen.outOfSync > 0 || seen.health.status !== 'Healthy') {
    const problem =
      seen.outOfSync > 0 ? `OutOfSync: ${seen.outOfSync} resource(s) differ` : healthProblem(seen.health);
    return { ...rest, checkedAt: now, problem };
  }
  return verifiedIfLongEnough(
    { ...rest, checkedAt: now, healthySince: current.healthySince ?? now },
    verify,
    now,
  );
}

function verifiedIfLongEnough(s: StageSync, verify: VerifySettings, now: number): StageSync {
  const healthyForMs = now - (s.healthySince ?? now);
  if (healthyForMs < verify.healthyForMinutes * 60_000) return s;
  return { ...s, status: 'verified', verifiedAt: now, healthyForMs };
}

function healthProblem(health: HealthStatus): string {
  return `${health.status}${health.message ? `: ${health.message}` : ''}`;
}

/**
 * Did the PostSync hook `Kind/name` Succeed in this operation? A hook with `generateName` has a suffix, so the
 * recorded name may be longer than the configured one.
 */
function hookOutcome(state: OperationState, hook: string): { passed: boolean; text: string } {
  const [kind, name] = hook.split('/') as [string, string];
  const ran = state.syncResult.resources.filter(
    (r) => r.hookType === 'PostSync' && r.kind === kind && r.name.startsWith(name),
  );
  if (ran.length === 0) return { passed: false, text: `PostSync ${hook} did not run in the sync` };
  const failed = ran.find((r) => r.hookPhase !== 'Succeeded');
  if (failed)
    return { passed: false, text: `PostSync ${hook} ended ${failed.hookPhase ?? 'without a phase'}` };
  return { passed: true, text: `PostSync ${hook} passed` };
}
