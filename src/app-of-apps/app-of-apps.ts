/**
 * App of Apps: the child Applications among a parent's sync tasks, and what to do next with them.
 * Argo CD applies child Applications as ordinary resources (kind-order: unknown kinds last in a wave) and, since
 * v1.8, does not wait for their health (spec §6.4, §9.1). wavesync applies them the same way and then syncs each
 * child in the parent's order (phase → wave → kind → name), by default waiting for a child to be Healthy before the
 * next one — the gating Argo CD offers only through a custom health check — or, with gating off, starting them
 * one after another without waiting.
 */

import { applicationFromObject } from '../applications/index.js';
import type { Application, HealthStatusCode, OperationPhase, SyncWave } from '../domain/index.js';
import type { SyncTask } from '../engine/index.js';

/** One child Application to sync after its parent. */
export interface ChildApplication {
  application: Application;
  /** The child's sync wave inside the parent. */
  wave: SyncWave;
  /** Wait for this child's sync to succeed and its health to be Healthy before the next child. */
  gateOnHealth: boolean;
}

/**
 * The child Applications of a parent, in the order of `tasks` (the parent's sync tasks in execution order, as the
 * planner builds them). Hooks and prune tasks are not children.
 * @throws ManifestError at the child's manifest when a child Application is invalid.
 */
export function childApplicationsOf(
  tasks: readonly Pick<SyncTask, 'group' | 'kind' | 'wave' | 'isHook' | 'targetObj' | 'source'>[],
  options: { gateOnChildHealth: boolean },
): ChildApplication[] {
  return tasks
    .filter(
      (t) => t.group === 'argoproj.io' && t.kind === 'Application' && !t.isHook && t.targetObj !== undefined,
    )
    .map((t) => ({
      application: applicationFromObject(t.targetObj!, t.source ?? { file: '(rendered)', line: 1 }),
      wave: t.wave,
      gateOnHealth: options.gateOnChildHealth,
    }));
}

/** What happened to a child sync so far (absent: not started). */
export interface ChildSyncStatus {
  phase: OperationPhase;
  /** Health of the child Application after its sync (aggregate of its resources). */
  health: HealthStatusCode;
}

export type ChildSyncStep =
  | { action: 'sync'; child: ChildApplication }
  | { action: 'wait'; child: ChildApplication; reason: string }
  | { action: 'failed'; child: ChildApplication; message: string }
  | { action: 'done' };

/**
 * The next step of syncing `children` in order, given the status of those started (by Application name).
 * A child gates the next one until its operation Succeeded and its health is Healthy; a Failed/Error operation or
 * Degraded health stops the sequence (as a Degraded child fails the parent wave in Argo CD, spec §6.4). Without
 * gating a child only has to be started.
 */
export function nextChildSyncStep(
  children: readonly ChildApplication[],
  statuses: ReadonlyMap<string, ChildSyncStatus>,
): ChildSyncStep {
  for (const child of children) {
    const status = statuses.get(child.application.name);
    if (!status) return { action: 'sync', child };
    if (!child.gateOnHealth) continue;
    const name = child.application.name;
    if (status.phase === 'Failed' || status.phase === 'Error') {
      return { action: 'failed', child, message: `child application ${name} sync ${status.phase}` };
    }
    if (status.health === 'Degraded')
      return { action: 'failed', child, message: `child application ${name} is Degraded` };
    if (status.phase !== 'Succeeded')
      return { action: 'wait', child, reason: `waiting for ${name} to finish syncing` };
    if (status.health !== 'Healthy') {
      return {
        action: 'wait',
        child,
        reason: `waiting for ${name} to become Healthy (now ${status.health})`,
      };
    }
  }
  return { action: 'done' };
}

/**
 * Per-parent override of `defaults.appOfApps.gateOnChildHealth`: `wavesync.io/gate-on-child-health: "false"` (or
 * `"true"`) on the parent Application. Any other value is ignored (the default applies).
 */
const GATE_ON_CHILD_HEALTH_ANNOTATION = 'wavesync.io/gate-on-child-health';

/** Whether the children of `parent` are gated on health: its annotation when set to true/false, else `defaultGate`. */
export function gateOnChildHealthOf(parent: Pick<Application, 'annotations'>, defaultGate: boolean): boolean {
  const value = parent.annotations[GATE_ON_CHILD_HEALTH_ANNOTATION]?.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  return defaultGate;
}

/** How one child sync ended (or `Running` while it runs). */
export interface ChildOutcome extends ChildSyncStatus {
  /** The operation's message (why it failed). */
  message: string;
  /** Operation duration in ms, once ended. */
  durationMs?: number;
  /** Health message (e.g. the Degraded reason). */
  healthMessage?: string;
  /**
   * A rollout's Application never synced because its approval request closed without approval (rejected, expired,
   * withdrawn, invalidated): why, and who closed it (a Slack user id, shown as a mention after `message`).
   */
  approvalClosed?: { message: string; by?: string };
  /** A rollout's Application whose approval request is pending (nothing queued yet). */
  awaitingApproval?: boolean;
}

/** The end of an App of Apps chain, for the parent's thread. */
export interface AppOfAppsSummary {
  parent: string;
  /** Children in the parent's order. */
  total: number;
  gateOnHealth: boolean;
  /** Children whose sync Succeeded and that are Healthy, in order. */
  healthy: string[];
  /** Children whose sync ended otherwise (Failed, Error, or not Healthy), in order. */
  problems: { name: string; outcome: ChildOutcome }[];
  /** Children never started because the sequence stopped, in order. */
  notSynced: string[];
}

/** Summarise a chain from the outcomes of its children (by Application name); `names` in the parent's order. */
export function summarizeChildSyncs(input: {
  parent: string;
  names: readonly string[];
  outcomes: ReadonlyMap<string, ChildOutcome>;
  gateOnHealth: boolean;
}): AppOfAppsSummary {
  const summary: AppOfAppsSummary = {
    parent: input.parent,
    total: input.names.length,
    gateOnHealth: input.gateOnHealth,
    healthy: [],
    problems: [],
    notSynced: [],
  };
  for (const name of input.names) {
    const outcome = input.outcomes.get(name);
    if (!outcome) summary.notSynced.push(name);
    else if (outcome.phase === 'Succeeded' && outcome.health === 'Healthy') summary.healthy.push(name);
    else summary.problems.push({ name, outcome });
  }
  return summary;
}

/**
 * Why `child` may not be synced under its parent's authorization, or undefined when it may. A child runs as the
 * parent's requester without an approval of its own, so it must not reach beyond what the parent's approval
 * covered: (1) a child named like an Application registered from wavesync.yaml's files or git (not one listed
 * from the cluster, which is typically this very child) would overwrite that Application — it has its own rules;
 * (2) a child that belongs to another environment than its parent (label, annotation or destination rule) is
 * governed by that environment's approvals, channels and freeze windows.
 */
export function childRefusal(
  child: Pick<Application, 'name'>,
  context: {
    parent: string;
    parentEnvironment: string | undefined;
    childEnvironment: string | undefined;
    registered: Pick<Application, 'origin'> | undefined;
  },
): string | undefined {
  const { registered } = context;
  if (registered && !registered.origin.startsWith('cluster:')) {
    return (
      `child ${child.name} has the name of the Application registered at ${registered.origin}; ` +
      `a parent may not sync it (use /sync ${child.name})`
    );
  }
  const { childEnvironment, parentEnvironment } = context;
  if (childEnvironment !== undefined && childEnvironment !== parentEnvironment) {
    return (
      `child ${child.name} belongs to environment ${childEnvironment} and ${context.parent} to ` +
      `${parentEnvironment ?? 'no environment'}: children inherit the parent's approval only within its environment`
    );
  }
  return undefined;
}
