/**
 * The worker's run of a `/sync delete` job (request.deletion): the Application and the Cluster of its destination,
 * then the deletion (./delete-application.ts, as the composition root configures it). A deletion that cannot start
 * (unknown Application, no cluster, a worker that cannot delete) ends in phase Error, said in the thread; transient
 * errors are rethrown so BullMQ retries them.
 */
import type { Application, DeletionRequest, OperationState } from '../domain/index.js';
import {
  isTransientError,
  messageOf,
  type RunnerLogger,
  reportStartFailure,
  type SyncRunnerContext,
} from '../queue/index.js';

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
    ctx: SyncRunnerContext;
    deletion: DeletionRequest;
  }): Promise<OperationState>;
}

/** A `/sync delete` job: the Application and its cluster, then the deletion (start failures end in Error). */
export async function runDeletion<ClusterT>(
  deps: DeletionRunnerDeps<ClusterT>,
  ctx: SyncRunnerContext,
  deletion: DeletionRequest,
  logger: RunnerLogger,
): Promise<OperationState> {
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
  const state = await deps.deleteApplication({ ...prepared, ctx, deletion });
  logger.info({ phase: state.phase, message: state.message }, 'deletion finished');
  return state;
}
