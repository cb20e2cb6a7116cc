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
  /** The rollout stops: `application` failed (or a step can update nothing), for `message`. */
  | { action: 'stopped'; step: number; application?: string; message: string }
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
  /** Why it stopped, when it did. */
  stopped?: { step: number; application?: string; message: string };
  /** Applications of the steps that were never started. */
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
    notSynced: all.filter((n) => !outcomes.has(n)),
    unassigned: [...chain.unassigned],
  };
}
