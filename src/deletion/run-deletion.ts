/**
 * The worker's run of a deletion job (DeletionJob: `/sync delete`, a removed generated Application): the Application and the Cluster of its destination,
 * then the deletion (./delete-application.ts, as the composition root configures it). A deletion that cannot start
 * (unknown Application, no cluster, a worker that cannot delete) ends in phase Error, said in the thread; transient
 * errors are rethrown so BullMQ retries them.
 */
import type { Application, OperationState, ResourceTracking } from '../domain/index.js';
import type { Cluster, ScriptedHealth } from '../engine/index.js';
import {
  type DeletionJob,
  deletionOperation,
  isTransientError,
  messageOf,
  type RunnerLogger,
  reportStartFailure,
  type SyncRunnerContext,
} from '../queue/index.js';
import { deleteApplication } from './delete-application.js';
import type { DeletionHooks } from './deletion-hooks.js';

/** What the deletion of a job needs from the worker. */
export interface DeletionRunnerDeps<ClusterT> {
  /**
   * The Application `name` (the request is passed too: an App of Apps child is resolved from it);
   * throws (or rejects with) BotError('application_not_found') for an unknown one.
   */
  application(name: string, request: SyncRunnerContext['request']): Application | Promise<Application>;
  /** The Cluster for the Application's destination (kubeconfig context from wavesync.yaml `clusters:`). */
  clusterFor(app: Application): ClusterT;
  /**
   * Runs a `/sync delete` job against the Application's cluster (deleteApplication with the worker's settings);
   * without it such jobs end with phase Error.
   */
  deleteApplication?(input: {
    app: Application;
    cluster: ClusterT;
    ctx: SyncRunnerContext<DeletionJob>;
  }): Promise<OperationState>;
}

/** A `/sync delete` job: the Application and its cluster, then the deletion (start failures end in Error). */
export async function runDeletion<ClusterT>(
  deps: DeletionRunnerDeps<ClusterT>,
  ctx: SyncRunnerContext<DeletionJob>,
  logger: RunnerLogger,
): Promise<OperationState> {
  const { deletion } = ctx.request;
  let prepared: { app: Application; cluster: ClusterT };
  try {
    if (!deps.deleteApplication) throw new Error('this worker cannot delete Applications');
    const app = await deps.application(ctx.request.application, ctx.request);
    prepared = { app, cluster: deps.clusterFor(app) };
  } catch (error) {
    if (isTransientError(error)) throw error;
    logger.warn({ err: messageOf(error) }, 'deletion could not start');
    return reportStartFailure(ctx, error);
  }
  logger.info(
    { cascade: deletion.cascade ?? 'finalizers', resumed: ctx.initialState !== undefined },
    'deletion started',
  );
  const state = await deps.deleteApplication({ ...prepared, ctx });
  logger.info({ phase: state.phase, message: state.message }, 'deletion finished');
  return state;
}

/** What every deletion of this worker shares: how objects are tracked, the time limit, hooks and health scripts. */
export interface WorkerDeletionSettings<ClusterT extends Cluster> {
  /** wavesync.yaml `resourceTracking`. */
  tracking: ResourceTracking | undefined;
  /** How long to wait for terminating objects and hooks, in ms. */
  timeoutMs: number;
  /** The Application's PreDelete/PostDelete hooks, rendered at `revision` (undefined: its targetRevision). */
  hooks(app: Application, revision: string | undefined): Promise<DeletionHooks>;
  /** The Lua health scripts for `cluster`, if any. */
  scriptedHealth(cluster: ClusterT): Promise<ScriptedHealth | undefined>;
}

/**
 * `DeletionRunnerDeps.deleteApplication` for a worker: the job's deletion (cascade, confirmed objects, the
 * confirmed plan's hash), its thread, persistence and cancel signal, and the worker's `settings`. The hooks are
 * rendered at the deletion's revision: a removed generated Application names the commit it was last synced at (its
 * path may be gone).
 */
export function workerDeletion<ClusterT extends Cluster>(
  settings: WorkerDeletionSettings<ClusterT>,
): NonNullable<DeletionRunnerDeps<ClusterT>['deleteApplication']> {
  return async ({ app, cluster, ctx }) => {
    const { deletion } = ctx.request;
    const scriptedHealth = await settings.scriptedHealth(cluster);
    return deleteApplication({
      app,
      cascade: deletion.cascade,
      confirmed: deletion.confirmed,
      planHash: deletion.planHash,
      operation: deletionOperation(deletion),
      cluster,
      ...(settings.tracking ? { tracking: settings.tracking } : {}),
      reporter: ctx.reporter,
      persist: (s) => ctx.persist(s),
      ...(ctx.initialState ? { initialState: ctx.initialState } : {}),
      signal: ctx.signal,
      timeoutMs: settings.timeoutMs,
      hooks: () => settings.hooks(app, deletion.revision),
      ...(scriptedHealth ? { scriptedHealth } : {}),
    });
  };
}
