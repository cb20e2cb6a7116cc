/**
 * An ApplicationSet's progressive rollout (`strategy: RollingSync`, Argo CD `applicationset/progressivesync`): what
 * to do next, given how each generated Application's sync went so far. Steps run in order; a step's Applications are
 * synced at most `atOnce` (maxUpdate) at a time; the next step starts only when every Application of the earlier
 * steps Succeeded and is Healthy (Argo CD: "every app of steps ≤ n exists and is Healthy"). The first Application
 * that fails, or ends not Healthy, stops the rollout with the reason. A step whose maxUpdate is 0 (or `0%`) updates
 * none of its Applications: in Argo CD the later steps then wait for them forever, so the rollout stops there and
 * says so. Applications no step selects are never synced by the rollout (Argo CD gives them step -1).
 * Pure: the driver (./rollout-driver.ts) records the outcomes and acts on the answer.
 */
import { isCompleted } from '../domain/index.js';
import type { RolloutChain } from '../queue/index.js';
import type { ChildOutcome } from './app-of-apps.js';

export type RolloutAction =
  /** Start these Applications of step `step` (0-based); `stepStarts`: none of the step was started before. */
  | { action: 'sync'; step: number; applications: string[]; stepStarts: boolean }
  /** Applications are running (or waiting for approval); their end decides. */
  | { action: 'wait' }
  /**
   * The rollout stops: `application` failed, or its approval was not given (`by`: who rejected or withdrew it), or
   * a step can update nothing; for `message`.
   */
  | { action: 'stopped'; step: number; application?: string; message: string; by?: string }
  | { action: 'done' };

const HEALTHY = (o: ChildOutcome | undefined) => o?.phase === 'Succeeded' && o.health === 'Healthy';

export function nextRolloutAction(
  chain: Pick<RolloutChain, 'steps'>,
  outcomes: ReadonlyMap<string, ChildOutcome>,
): RolloutAction {
  for (const [step, { applications, atOnce, maxUpdate }] of chain.steps.entries()) {
    if (applications.length === 0) continue;
    for (const name of applications) {
      const outcome = outcomes.get(name);
      if (!outcome || !isCompleted(outcome.phase) || HEALTHY(outcome)) continue;
      const closed = outcome.approvalClosed;
      if (closed) {
        return {
          action: 'stopped',
          step,
          application: name,
          message: closed.message,
          ...(closed.by ? { by: closed.by } : {}),
        };
      }
      const why =
        outcome.phase !== 'Succeeded'
          ? `${name} sync ${outcome.phase}${outcome.message ? `: ${outcome.message}` : ''}`
          : `${name} is ${outcome.health}${outcome.healthMessage ? `: ${outcome.healthMessage}` : ''} after its sync`;
      return { action: 'stopped', step, application: name, message: why };
    }
    if (applications.every((name) => HEALTHY(outcomes.get(name)))) continue;
    if (atOnce === 0) {
      return {
        action: 'stopped',
        step,
        message:
          `step ${step + 1} has maxUpdate ${String(maxUpdate)}: none of its Applications (${applications.join(', ')}) ` +
          'is updated, and the later steps wait for them (as in Argo CD)',
      };
    }
    const running = applications.filter((name) => {
      const outcome = outcomes.get(name);
      return outcome !== undefined && !isCompleted(outcome.phase);
    });
    const notStarted = applications.filter((name) => !outcomes.has(name));
    const free = atOnce - running.length;
    if (notStarted.length === 0 || free <= 0) return { action: 'wait' };
    return {
      action: 'sync',
      step,
      applications: notStarted.slice(0, free),
      stepStarts: notStarted.length === applications.length,
    };
  }
  return { action: 'done' };
}

/** The end of a rollout, for its thread. */
export interface RolloutSummary {
  applicationSet: string;
  /** Applications the rollout syncs (every step's), in step order. */
  total: number;
  /** Those that Succeeded and are Healthy, in step order. */
  healthy: string[];
  /** Why it stopped, when it did; `by`: the Slack user who rejected or withdrew the approval that stopped it. */
  stopped?: { step: number; application?: string; message: string; by?: string };
  /**
   * Applications of the steps never synced: not started, still waiting for approval, or whose approval was closed
   * by the stop (the one that stopped the rollout is named in `stopped`).
   */
  notSynced: string[];
  /** Applications no step selects (never synced by the rollout). */
  unassigned: string[];
}

export function summarizeRollout(
  chain: Pick<RolloutChain, 'applicationSet' | 'steps' | 'unassigned'>,
  outcomes: ReadonlyMap<string, ChildOutcome>,
  stopped?: RolloutSummary['stopped'],
): RolloutSummary {
  const all = chain.steps.flatMap((s) => s.applications);
  return {
    applicationSet: chain.applicationSet,
    total: all.length,
    healthy: all.filter((n) => HEALTHY(outcomes.get(n))),
    ...(stopped ? { stopped } : {}),
    notSynced: all.filter((n) => {
      const o = outcomes.get(n);
      return (
        !o || o.awaitingApproval === true || (o.approvalClosed !== undefined && n !== stopped?.application)
      );
    }),
    unassigned: [...chain.unassigned],
  };
}

/** How an approval request of a rollout's Application closed without approval (the approval flow's record). */
export interface ClosedApproval {
  status: 'rejected' | 'expired' | 'withdrawn' | 'invalidated';
  /** Who rejected or withdrew it (Slack user id). */
  decidedBy?: string;
  /** Who asked (the rollout's initiator): rejecting one's own request is withdrawing it. */
  requesterId: string;
  /** ISO-8601: when the request was made and when it expired. */
  createdAt: string;
  expiresAt: string;
  /** Why it was invalidated (or withdrawn). */
  note?: string;
}

/**
 * Why the rollout stops at `application` whose approval closed: `shop-prod sync was rejected` (by), `shop-prod
 * approval expired after 30 min`, `shop-prod sync was withdrawn` (by), `shop-prod approval was invalidated: …`.
 */
export function approvalClosedReason(
  application: string,
  closed: ClosedApproval,
): { message: string; by?: string } {
  const by = closed.decidedBy ? { by: closed.decidedBy } : {};
  switch (closed.status) {
    case 'rejected':
      return closed.decidedBy !== undefined && closed.decidedBy === closed.requesterId
        ? { message: `${application} sync was withdrawn`, ...by }
        : { message: `${application} sync was rejected`, ...by };
    case 'withdrawn':
      return { message: `${application} sync was withdrawn`, ...by };
    case 'expired': {
      const minutes = Math.round((Date.parse(closed.expiresAt) - Date.parse(closed.createdAt)) / 60_000);
      return { message: `${application} approval expired after ${minutes} min` };
    }
    case 'invalidated':
      return {
        message: `${application} approval was invalidated: ${closed.note ?? 'what would be synced changed'}`,
      };
  }
}
