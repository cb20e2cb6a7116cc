/**
 * The App of Apps runtime, as the worker's JobLifecycle: when a parent's operation Succeeded (not a dry run), its
 * child Applications (in the parent's phase → wave → kind → name order) are synced one after another, each as its
 * own job on the sync queue — its own line, persistence and resume, cancel, history and metrics — with the chain
 * carried in the request (`SyncRequest.appOfApps`). No worker slot is held while children run.
 *
 * - Gated (default, `defaults.appOfApps.gateOnChildHealth`, per parent `wavesync.io/gate-on-child-health`): the
 *   worker that ends child N enqueues child N+1 only if N Succeeded and its post-sync health is Healthy
 *   (`nextChildSyncStep`); a Failed/Error/cancelled child, or one that ended Degraded or otherwise not Healthy,
 *   stops the sequence.
 * - Not gated: the worker that starts child N enqueues child N+1 (each starts after the previous started).
 *
 * Idempotent: a child's job id is derived from the parent's job id and the child's name (and its requestKey is
 * `aoa:<parentJobId>:<child>`), so a resumed or retried job that runs its hook again never enqueues a child twice.
 * Outcomes are kept per chain in the chain store (AppOfAppsChainStore; Redis in production); the final summary and
 * the announcement are posted once (`store.once`). The driver codes against the ports of ./app-of-apps-ports.ts
 * and imports no adapter: src/main/start-worker.ts passes the Redis store and the Slack announcer.
 * Children inherit the parent's authorization: the parent's request was authorized (and approved where its
 * environment requires it) and each child runs with the parent's initiator, without a second approval.
 */

import {
  type Application,
  BotError,
  type Initiator,
  isCompleted,
  type OperationState,
  reasonForPeople,
} from '../domain/index.js';
import { buildSyncTasksSliced, type SourcedObject } from '../engine/index.js';
import { environmentNameOf } from '../environments/index.js';
import {
  type AppOfAppsChain,
  currentChild,
  derivedJobId,
  isTransientError,
  type JobLifecycle,
  type SyncJob,
  type SyncQueueClient,
  TransientError,
} from '../queue/index.js';
import { requestChildSync } from '../requests/for-app-of-apps.js';
import type { Settings } from '../settings/index.js';
import {
  type ChildApplication,
  type ChildOutcome,
  childApplicationsOf,
  childRefusal,
  gateOnChildHealthOf,
  nextChildSyncStep,
  summarizeChildSyncs,
} from './app-of-apps.js';
import type {
  AppOfAppsAnnouncer,
  AppOfAppsChainStore,
  AppOfAppsLogger,
  ChainMilestone,
} from './app-of-apps-ports.js';
import type { ApplicationResolver } from './resolve-application.js';

export interface AppOfAppsDriverDeps {
  queue: Pick<SyncQueueClient, 'enqueueSync'>;
  /**
   * Resolves once the parent job's own thread is delivered (a job ends once its lines are in the outbox; the worker
   * posts them after it): the children's lines follow the parent's summary in the thread. Absent: no wait.
   */
  threadDelivered?(jobId: string): Promise<void>;
  /** Chain state: each child's outcome and the once-per-chain milestones (redisAppOfAppsChainStore). */
  store: AppOfAppsChainStore;
  settings: Pick<Settings, 'defaults' | 'environments'>;
  applicationOf: ApplicationResolver;
  /** Render an Application at a (resolved) revision, as the runner does. */
  render(
    app: Application,
    options: { revision: string | undefined },
  ): Promise<{ targets: SourcedObject[]; revision: string }>;
  /** Posts in the parent's thread (the Slack announcer); absent without Slack. */
  announcer?: AppOfAppsAnnouncer;
  /** A registered Application by name (the registry's `find`), to refuse children that would overwrite one. */
  registered(name: string): Application | undefined;
  logger: AppOfAppsLogger;
}

/**
 * The BullMQ job id of a chain's child: a UUID (version-5 layout) derived from the parent's job id and the child's
 * name, so enqueueing it twice is refused.
 */
export function childJobId(parentJobId: string, child: string): string {
  return derivedJobId(parentJobId, child);
}

/** The requestKey of a chain's child. */
export function childRequestKey(parentJobId: string, child: string): string {
  return `aoa:${parentJobId}:${child}`;
}

/**
 * Build the lifecycle hooks. The hooks reject when the chain store does (BullMQ retries the job's hook) and with a
 * TransientError when a child could not be queued; the announcer's delivery problems are its own.
 */
export function createAppOfAppsDriver(deps: AppOfAppsDriverDeps): JobLifecycle {
  const once = (parentJobId: string, milestone: ChainMilestone) => deps.store.once(parentJobId, milestone);

  /** Write a child's outcome (or its Running placeholder, only if none) and read every outcome of the chain. */
  const recordOutcome = (chain: AppOfAppsChain, name: string, outcome: ChildOutcome, overwrite: boolean) =>
    deps.store.recordOutcome(chain.parentJobId, name, outcome, { overwrite });

  function childrenOf(chain: AppOfAppsChain): ChildApplication[] {
    return chain.children.map((c, index) => ({
      application: deps.applicationOf({ application: c.name, appOfApps: { ...chain, index } }),
      wave: c.wave,
      gateOnHealth: chain.gateOnHealth,
    }));
  }

  async function enqueueChild(chain: AppOfAppsChain, index: number, initiator: Initiator): Promise<void> {
    const child = chain.children[index];
    if (!child) return;
    const next: AppOfAppsChain = { ...chain, index };
    const app = deps.applicationOf({ application: child.name, appOfApps: next });
    const request: SyncJob = {
      application: child.name,
      // The child's own automated prune setting, as Argo CD's automated sync of the child would use.
      operation: { prune: app.syncPolicy?.automated?.prune === true, dryRun: false, syncOptions: [] },
      initiator,
      target: undefined,
      requestKey: childRequestKey(chain.parentJobId, child.name),
      appOfApps: next,
    };
    try {
      const result = await requestChildSync(
        { queue: deps.queue },
        { request, jobId: childJobId(chain.parentJobId, child.name) },
      );
      deps.logger.info(
        { parent: chain.parent, child: child.name, jobId: result.jobId, duplicate: result.duplicate },
        result.duplicate ? 'App of Apps child already queued' : 'App of Apps child queued',
      );
    } catch (err) {
      if (err instanceof BotError && err.code === 'not_queued') {
        throw new TransientError(err.message, { cause: err });
      }
      throw err;
    }
  }

  async function endChain(chain: AppOfAppsChain, outcomes: Map<string, ChildOutcome>): Promise<void> {
    if (!(await once(chain.parentJobId, 'summary'))) return;
    const summary = summarizeChildSyncs({
      parent: chain.parent,
      names: chain.children.map((c) => c.name),
      outcomes,
      gateOnHealth: chain.gateOnHealth,
    });
    deps.logger.info(
      {
        parent: chain.parent,
        healthy: summary.healthy.length,
        total: summary.total,
        notSynced: summary.notSynced,
      },
      'App of Apps children done',
    );
    if (chain.parentTarget) await deps.announcer?.chainEnded(chain.parentTarget, summary);
  }

  /** Decide what follows, given every outcome so far; `current` is the child whose hook runs. */
  async function advance(
    chain: AppOfAppsChain,
    outcomes: Map<string, ChildOutcome>,
    current: string,
    initiator: Initiator,
  ): Promise<void> {
    const children = childrenOf(chain);
    const step = nextChildSyncStep(children, outcomes);
    switch (step.action) {
      case 'sync':
        return enqueueChild(chain, children.indexOf(step.child), initiator);
      case 'failed':
        return endChain(chain, outcomes);
      case 'wait': {
        // The child whose operation just ended is not Healthy (e.g. Progressing after the health timeout):
        // nothing will re-check it, so the sequence stops here.
        const waited = outcomes.get(step.child.application.name);
        if (step.child.application.name === current && waited && isCompleted(waited.phase)) {
          return endChain(chain, outcomes);
        }
        return;
      }
      case 'done':
        if (chain.children.every((c) => isCompleted(outcomes.get(c.name)?.phase ?? 'Running'))) {
          return endChain(chain, outcomes);
        }
    }
  }

  async function startChildren(jobId: string, request: SyncJob, state: OperationState): Promise<void> {
    const parent = deps.applicationOf(request);
    const target = request.target ?? request.appOfApps?.parentTarget;
    let children: ChildApplication[];
    try {
      const rendered = await deps.render(parent, { revision: state.syncResult.revision || undefined });
      const { tasks } = await buildSyncTasksSliced({
        targets: rendered.targets,
        live: [],
        namespace: parent.destination.namespace ?? '',
        revision: rendered.revision,
        startedAt: state.startedAt,
        operation: state.operation,
      });
      const gate = gateOnChildHealthOf(parent, deps.settings.defaults.appOfApps.gateOnChildHealth);
      children = childApplicationsOf(tasks, { gateOnChildHealth: gate });
    } catch (err) {
      if (isTransientError(err)) throw err;
      const reason = reasonForPeople(err);
      deps.logger.warn({ parent: parent.name, err }, 'App of Apps children not synced');
      await deps.threadDelivered?.(jobId);
      if (target && (await once(jobId, 'announced')))
        await deps.announcer?.childrenNotSynced(target, parent.name, reason);
      return;
    }
    if (children.length === 0) return;
    await deps.threadDelivered?.(jobId);
    const environment = environmentNameOf(deps.settings, parent);
    const refusals = children.flatMap((c) => {
      const why = childRefusal(c.application, {
        parent: parent.name,
        parentEnvironment: environment,
        childEnvironment: environmentNameOf(deps.settings, c.application),
        registered: deps.registered(c.application.name),
      });
      return why ? [why] : [];
    });
    if (refusals.length > 0) {
      // The whole chain stops: syncing the other children out of order would break the parent's wave order.
      const reason = `refused: ${refusals.join('; ')}`;
      deps.logger.warn({ parent: parent.name, refusals }, 'App of Apps children not synced');
      if (target && (await once(jobId, 'announced')))
        await deps.announcer?.childrenNotSynced(target, parent.name, reason);
      return;
    }
    const chain: AppOfAppsChain = {
      parent: parent.name,
      parentJobId: jobId,
      ...(target ? { parentTarget: target } : {}),
      ...(environment ? { environment } : {}),
      gateOnHealth: children[0]?.gateOnHealth ?? true,
      children: children.map((c) => ({
        name: c.application.name,
        manifest: c.application.manifest as unknown as Record<string, unknown>,
        origin: c.application.origin,
        wave: c.wave,
      })),
      index: 0,
    };
    if (target && (await once(jobId, 'announced'))) {
      await deps.announcer?.childrenStarting(target, {
        parent: parent.name,
        children: chain.children.map((c) => c.name),
        gateOnHealth: chain.gateOnHealth,
      });
    }
    await enqueueChild(chain, 0, request.initiator);
  }

  return {
    async started({ request }) {
      const chain = request.appOfApps;
      if (!chain) return;
      const child = currentChild(chain);
      const running: ChildOutcome = { phase: 'Running', health: 'Progressing', message: '' };
      const outcomes = await recordOutcome(chain, child.name, running, false);
      if (!chain.gateOnHealth) await advance(chain, outcomes, child.name, request.initiator);
    },
    async ended({ jobId, request, state, cancelled }) {
      const chain = request.appOfApps;
      if (chain) {
        const child = currentChild(chain);
        const finishedAt = state.finishedAt ? Date.parse(state.finishedAt) : Date.now();
        const outcome: ChildOutcome = {
          phase:
            cancelled || !isCompleted(state.phase)
              ? state.phase === 'Error'
                ? 'Error'
                : 'Failed'
              : state.phase,
          health: state.health?.status ?? 'Unknown',
          message: cancelled ? 'Operation terminated' : state.message,
          durationMs: Math.max(0, finishedAt - Date.parse(state.startedAt)),
          ...(state.health?.message ? { healthMessage: state.health.message } : {}),
        };
        const outcomes = await recordOutcome(chain, child.name, outcome, true);
        await advance(chain, outcomes, child.name, request.initiator);
      }
      // A `/sync delete` job (request.deletion) deletes the parent; it syncs no children.
      if (!cancelled && state.phase === 'Succeeded' && !request.deletion && !request.operation.dryRun) {
        await startChildren(jobId, request, state);
      }
    },
  };
}
