/**
 * The runtime of an ApplicationSet's rollout (`/sync <appset>`), built on the App of Apps chain: each generated
 * Application is synced as its own job on the sync queue — its own line in the rollout's thread, persistence and
 * resume, cancel, history — with the rollout carried in the request (`SyncJob.rollout`), queued through the
 * chained-sync entry point (requestChildSync: authorization inherited from the person who started the rollout,
 * checked for every Application before the first step). Outcomes and once-only lines are kept in the App of Apps
 * chain store, keyed by the rollout's id. `start` begins it (the bot, after the thread's header); the worker's
 * `ended` hook of each Application decides what follows (./rollout.ts): more Applications of the step up to
 * maxUpdate, the next step, the summary, or a stop at the first failure.
 *
 * An Application whose environment requires approval is not queued directly: an approval request is posted in the
 * rollout's thread (the existing approval flow, RolloutApprovals), and once approved the approval flow queues it with
 * the rollout, so its end continues the rollout like any other. A request that closes without approval (rejected,
 * expired, withdrawn, invalidated: the approval flow calls `approvalClosed`) is that Application's end: the rollout
 * stops there with the reason, like a failed sync. A stopped rollout releases what it holds: its requests still
 * pending are invalidated (RolloutApprovals.release), so no later approval syncs anything; `/sync <appset>` again
 * starts a new rollout.
 *
 * Idempotent as App of Apps chains are: an Application's job id and request key derive from the rollout id, so a
 * retried hook queues nothing twice and asks for no second approval.
 */
import { BotError, type Initiator, isCompleted, type OperationState } from '../domain/index.js';
import {
  derivedJobId,
  type JobLifecycle,
  type RolloutChain,
  type SyncJob,
  type SyncQueueClient,
  TransientError,
} from '../queue/index.js';
import { requestChildSync } from '../requests/for-app-of-apps.js';
import type { ChildOutcome } from './app-of-apps.js';
import type {
  AppOfAppsChainStore,
  AppOfAppsLogger,
  RolloutAnnouncer,
  RolloutApprovals,
} from './app-of-apps-ports.js';
import {
  approvalClosedReason,
  type ClosedApproval,
  nextRolloutAction,
  type RolloutSummary,
  summarizeRollout,
} from './rollout.js';

export interface RolloutDriverDeps {
  queue: Pick<SyncQueueClient, 'enqueueSync'>;
  store: AppOfAppsChainStore;
  /** A registered Application by name (generated ones included): its automated prune setting. */
  registered(name: string): { syncPolicy?: { automated?: { prune?: boolean } } } | undefined;
  /** Absent where no approval flow is wired: an Application that needs approval then stops the rollout. */
  approvals?: RolloutApprovals;
  announcer?: RolloutAnnouncer;
  logger: AppOfAppsLogger;
}

export interface RolloutDriver {
  /** Begin `chain` (its thread's header is posted): the first Applications of the first step. */
  start(chain: RolloutChain, initiator: Initiator): Promise<void>;
  /** The worker's hooks: record each Application's outcome and continue the rollout. */
  lifecycle: JobLifecycle;
  /**
   * The approval request of `application` (an Application of `chain` waiting for approval) closed without approval:
   * it ends there, not synced, and the rollout stops with the reason. Idempotent (one summary per rollout).
   */
  approvalClosed(
    chain: RolloutChain,
    application: string,
    closed: ClosedApproval,
    initiator: Initiator,
  ): Promise<void>;
}

/** The BullMQ job id of a rollout's Application (derived: queued at most once per rollout). */
export function rolloutJobId(rolloutId: string, application: string): string {
  return derivedJobId(`rollout:${rolloutId}`, application);
}

/** The request key of a rollout's Application (its approval request is keyed by it too). */
function rolloutRequestKey(rolloutId: string, application: string): string {
  return `rollout:${rolloutId}:${application}`;
}

export function createRolloutDriver(deps: RolloutDriverDeps): RolloutDriver {
  const record = (chain: RolloutChain, name: string, outcome: ChildOutcome, overwrite: boolean) =>
    deps.store.recordOutcome(chain.rolloutId, name, outcome, { overwrite });

  async function enqueue(chain: RolloutChain, request: SyncJob): Promise<void> {
    try {
      const result = await requestChildSync(
        { queue: deps.queue },
        { request, jobId: rolloutJobId(chain.rolloutId, request.application) },
      );
      deps.logger.info(
        { applicationSet: chain.applicationSet, application: request.application, jobId: result.jobId },
        result.duplicate ? 'rollout Application already queued' : 'rollout Application queued',
      );
    } catch (err) {
      if (err instanceof BotError && err.code === 'not_queued') {
        throw new TransientError(err.message, { cause: err });
      }
      throw err;
    }
  }

  /** Queue `name` (or ask for its approval); a refusal or a vanished Application is recorded as its failure. */
  async function startApplication(
    chain: RolloutChain,
    name: string,
    step: number,
    initiator: Initiator,
  ): Promise<Map<string, ChildOutcome> | undefined> {
    const failed = (message: string) =>
      record(chain, name, { phase: 'Failed', health: 'Unknown', message, durationMs: 0 }, true);
    const app = deps.registered(name);
    if (!app) return failed(`${name} is no longer generated by ApplicationSet ${chain.applicationSet}`);
    const request: SyncJob = {
      application: name,
      // The Application's own automated prune setting, as Argo CD's RollingSync uses it.
      operation: { prune: app.syncPolicy?.automated?.prune === true, dryRun: false, syncOptions: [] },
      initiator,
      target: undefined,
      requestKey: rolloutRequestKey(chain.rolloutId, name),
      rollout: chain,
    };
    if (!chain.approval.includes(name)) {
      await enqueue(chain, request);
      return undefined;
    }
    if (!deps.approvals) return failed(`${name} needs approval, and no approval flow is configured`);
    const waiting: ChildOutcome = {
      phase: 'Running',
      health: 'Unknown',
      message: 'waiting for approval',
      awaitingApproval: true,
    };
    await record(chain, name, waiting, false);
    const header = chain.target
      ? await deps.announcer?.approvalPlaceholder(chain.target, name, step + 1)
      : undefined;
    const gated = await deps.approvals.request(request, header);
    if (gated.kind === 'refused') return failed(`${name} refused: ${gated.reason}`);
    if (gated.kind === 'proceed') await enqueue(chain, request);
    return undefined;
  }

  async function end(chain: RolloutChain, summary: RolloutSummary): Promise<void> {
    const { stopped } = summary;
    const first = await deps.store.once(chain.rolloutId, 'summary');
    // Every end of a stopped rollout releases (idempotent), so a retried hook finishes what a dead process began;
    // after the once, so the Applications it closes (each calls approvalClosed) find the summary taken.
    if (stopped && deps.approvals?.release) {
      const why = `the rollout of ${chain.applicationSet} stopped at step ${stopped.step} (${stopped.message})`;
      const released = await deps.approvals.release(chain, why);
      if (released > 0)
        deps.logger.info(
          { applicationSet: chain.applicationSet, released },
          'pending approvals of the stopped rollout invalidated',
        );
    }
    if (!first) return;
    deps.logger.info(
      {
        applicationSet: chain.applicationSet,
        healthy: summary.healthy.length,
        total: summary.total,
        stopped: summary.stopped?.message,
      },
      summary.stopped ? 'rollout stopped' : 'rollout done',
    );
    if (chain.target) await deps.announcer?.rolloutEnded(chain.target, summary);
  }

  async function advance(
    chain: RolloutChain,
    outcomes: Map<string, ChildOutcome>,
    initiator: Initiator,
  ): Promise<void> {
    for (;;) {
      const next = nextRolloutAction(chain, outcomes);
      if (next.action === 'wait') return;
      if (next.action === 'done') {
        const all = chain.steps.flatMap((s) => s.applications);
        if (all.every((n) => isCompleted(outcomes.get(n)?.phase ?? 'Running')))
          return end(chain, summarizeRollout(chain, outcomes));
        return;
      }
      if (next.action === 'stopped') {
        const { step, message, application, by } = next;
        return end(
          chain,
          summarizeRollout(chain, outcomes, {
            step: step + 1,
            message,
            ...(application ? { application } : {}),
            ...(by ? { by } : {}),
          }),
        );
      }
      const step = chain.steps[next.step]!;
      if (
        next.stepStarts &&
        chain.target &&
        (await deps.store.once(chain.rolloutId, `step-${next.step + 1}`))
      ) {
        await deps.announcer?.stepStarting(chain.target, {
          applicationSet: chain.applicationSet,
          number: next.step + 1,
          of: chain.steps.length,
          applications: step.applications,
          atOnce: step.atOnce,
          ...(step.maxUpdate === undefined ? {} : { maxUpdate: step.maxUpdate }),
          approval: step.applications.filter((n) => chain.approval.includes(n)),
        });
      }
      let changed: Map<string, ChildOutcome> | undefined;
      for (const name of next.applications) {
        changed = await startApplication(chain, name, next.step, initiator);
        if (changed) break;
      }
      // An Application that could not start is recorded as failed: decide again with it (the rollout stops).
      if (!changed) return;
      outcomes = changed;
    }
  }

  function outcomeOf(state: OperationState, cancelled: boolean): ChildOutcome {
    const finishedAt = state.finishedAt ? Date.parse(state.finishedAt) : Date.now();
    return {
      phase:
        cancelled || !isCompleted(state.phase) ? (state.phase === 'Error' ? 'Error' : 'Failed') : state.phase,
      health: state.health?.status ?? 'Unknown',
      message: cancelled ? 'Operation terminated' : state.message,
      durationMs: Math.max(0, finishedAt - Date.parse(state.startedAt)),
      ...(state.health?.message ? { healthMessage: state.health.message } : {}),
    };
  }

  return {
    async start(chain, initiator) {
      await advance(chain, new Map(), initiator);
    },
    async approvalClosed(chain, application, closed, initiator) {
      const reason = approvalClosedReason(application, closed);
      deps.logger.info(
        { applicationSet: chain.applicationSet, application, status: closed.status },
        'rollout Application not approved',
      );
      const outcome: ChildOutcome = {
        phase: 'Failed',
        health: 'Unknown',
        message: reason.message,
        durationMs: 0,
        approvalClosed: reason,
      };
      await advance(chain, await record(chain, application, outcome, true), initiator);
    },
    lifecycle: {
      async started({ request }) {
        const chain = request.rollout;
        if (!chain) return;
        const running: ChildOutcome = { phase: 'Running', health: 'Progressing', message: '' };
        const outcomes = await record(chain, request.application, running, false);
        // Approved: its "waiting for approval" placeholder gives way (an ended outcome never does).
        if (outcomes.get(request.application)?.awaitingApproval)
          await record(chain, request.application, running, true);
      },
      async ended({ request, state, cancelled }) {
        const chain = request.rollout;
        if (!chain) return;
        const outcomes = await record(chain, request.application, outcomeOf(state, cancelled), true);
        await advance(chain, outcomes, request.initiator);
      },
    },
  };
}
