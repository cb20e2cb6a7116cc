/**
 * Drift episodes: a periodic comparison must speak once per drift, not every interval. An episode starts when an
 * Application is first seen OutOfSync and ends when it is seen Synced again. At the start of an episode the
 * Application is synced automatically when `syncPolicy.automated.selfHeal` is set and its environment allows
 * automatic syncs; otherwise one "OutOfSync" notification (with a Sync button) is posted. A self-heal sync that
 * did not bring the Application back is retried with exponential backoff (Argo CD retries self-heal with backoff
 * too), never more than once per interval. The state is plain data so callers can keep it in Redis.
 */
import type { ResourceDifference } from './compare-application.js';

export interface DriftState {
  /** ISO time the current episode started; absent when Synced. */
  outOfSyncSince?: string;
  /** Self-heal syncs started in this episode. */
  selfHealAttempts: number;
  /** ISO time of the last self-heal sync. */
  lastSelfHealAt?: string;
}

export type DriftAction =
  | { action: 'none' }
  | { action: 'notify'; message: string; differences: ResourceDifference[] }
  | { action: 'sync'; message: string; differences: ResourceDifference[] }
  | { action: 'resolved'; message: string };

export interface DriftPolicy {
  /** `syncPolicy.automated.selfHeal` and the environment allows automatic syncs. */
  selfHeal: boolean;
  /** First self-heal retry delay in ms, doubled per attempt (default 10 000). */
  retryBaseMs?: number;
  /** Longest retry delay in ms (default 180 000). */
  retryMaxMs?: number;
}

/** The next state and what to do, for one comparison of one Application at `now`. */
export function observeDrift(
  previous: DriftState | undefined,
  differences: readonly ResourceDifference[],
  policy: DriftPolicy,
  now: Date,
): { state: DriftState; action: DriftAction } {
  const inEpisode = previous?.outOfSyncSince !== undefined;
  if (differences.length === 0) {
    return inEpisode
      ? { state: { selfHealAttempts: 0 }, action: { action: 'resolved', message: 'Synced again' } }
      : { state: { selfHealAttempts: 0 }, action: { action: 'none' } };
  }
  const message = driftMessage(differences);
  if (!inEpisode) {
    const state: DriftState = { outOfSyncSince: now.toISOString(), selfHealAttempts: 0 };
    if (!policy.selfHeal)
      return { state, action: { action: 'notify', message, differences: [...differences] } };
    return selfHeal(state, message, differences, now);
  }
  const state = previous as DriftState;
  if (!policy.selfHeal || !retryDue(state, policy, now)) return { state, action: { action: 'none' } };
  return selfHeal(state, message, differences, now);
}

function selfHeal(state: DriftState, message: string, differences: readonly ResourceDifference[], now: Date) {
  return {
    state: { ...state, selfHealAttempts: state.selfHealAttempts + 1, lastSelfHealAt: now.toISOString() },
    action: { action: 'sync', message, differences: [...differences] } as DriftAction,
  };
}

function retryDue(state: DriftState, policy: DriftPolicy, now: Date): boolean {
  if (state.lastSelfHealAt === undefined) return true;
  const base = policy.retryBaseMs ?? 10_000;
  const delay = Math.min(base * 2 ** Math.max(0, state.selfHealAttempts - 1), policy.retryMaxMs ?? 180_000);
  return now.getTime() - Date.parse(state.lastSelfHealAt) >= delay;
}

/** `OutOfSync: 2 resources differ (Deployment/web: spec.replicas changed, Service/web: missing)`. */
export function driftMessage(differences: readonly ResourceDifference[]): string {
  const shown = differences.slice(0, 5).map((d) => {
    const what = d.reason === 'changed' ? `${d.path ?? 'fields'} changed` : d.reason;
    return `${d.key.kind}/${d.key.name}: ${what}`;
  });
  const more = differences.length > shown.length ? `, and ${differences.length - shown.length} more` : '';
  const noun = differences.length === 1 ? 'resource differs' : 'resources differ';
  return `OutOfSync: ${differences.length} ${noun} (${shown.join(', ')}${more})`;
}
