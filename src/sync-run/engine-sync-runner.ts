/**
 * createEngineSyncRunner — adapts the sync engine's `runOperation(...)` to the queue's SyncRunner port: load the
 * Application from the registry → render its manifests at the operation's revision → run the operation against
 * the Cluster of the Application's destination, reporting to the job's reporter, persisting after every step and
 * terminating on the job's AbortSignal. A `/sync delete` job (request.deletion) is src/deletion's (runDeletion); a
 * rollback renders the source its history entry recorded (src/rollback).
 *
 * A request that cannot start (unknown Application, manifests that do not render, no cluster for the
 * destination) is an outcome the user must see, not a crash: the runner reports `OperationCompleted` with phase
 * Error and the problem, and resolves with that state (never retried). Transient errors (`transient: true`) are
 * rethrown so BullMQ retries them and the next attempt resumes from the persisted state. Resuming a completed
 * operation (saved before its Application health) is not a start: it throws whatever keeps it from the health step
 * and the queue ends the job from the saved state with health Unknown (src/queue/sync-processor.ts).
 */

import { applicationWarnings } from '../applications/index.js';
import { type DeletionRunnerDeps, runDeletion } from '../deletion/index.js';
import {
  type Application,
  isCompleted,
  type OperationState,
  withApplicationSyncOptions,
  withOperationSource,
} from '../domain/index.js';
import { ignoreDifferencesOf, type PlanWarning, type RunOperationInput } from '../engine/index.js';
import {
  isTransientError,
  messageOf,
  type RunnerLogger,
  reportStartFailure,
  type SyncJob,
  type SyncRunner,
  type SyncRunnerContext,
  TERMINATED,
} from '../queue/index.js';
import { rollbackWarnings } from '../rollback/index.js';

/** The desired objects of an Application at a revision, and the revision they were resolved to. */
interface RenderedApplication<Target> {
  targets: Target[];
  /** Resolved revision: a git SHA, or the content hash of a local directory. */
  revision: string;
  /** Fallback warnings of rendering (e.g. unknown directory options), passed on to the engine. */
  warnings?: PlanWarning[];
}

/**
 * The engine entry point, as the composition root passes it in (src/engine/run/run-operation.ts): the engine's input
 * with this runner's target and cluster types, tracking and engine options left to the composition root.
 */
export type RunOperation<Target, ClusterT> = (
  input: Omit<RunOperationInput, 'targets' | 'cluster' | 'tracking' | 'options' | 'logger'> & {
    targets: Target[];
    cluster: ClusterT;
    logger?: RunnerLogger;
  },
) => Promise<OperationState>;

/** What a sync needs from the worker; a deletion job needs the DeletionRunnerDeps part (src/deletion). */
export interface EngineSyncRunnerDeps<Target, ClusterT> extends DeletionRunnerDeps<ClusterT> {
  /** Stops when `signal` aborts (a cancel while rendering), rejecting with any error. */
  render(
    app: Application,
    options: { revision: string | undefined; signal: AbortSignal },
  ): Promise<RenderedApplication<Target>>;
  runOperation: RunOperation<Target, ClusterT>;
  /** Per-job logger (child of the root with `{ application, operationId }`). */
  logger(fields: { application: string; operationId: string }): RunnerLogger;
}

/** Build the SyncRunner. */
export function createEngineSyncRunner<Target, ClusterT>(
  deps: EngineSyncRunnerDeps<Target, ClusterT>,
): SyncRunner {
  return async (ctx) => {
    const { request } = ctx;
    const logger = deps.logger({ application: request.application, operationId: ctx.jobId });
    if (request.deletion) return runDeletion(deps, { ...ctx, request }, logger);
    return runSync(deps, { ...ctx, request }, logger);
  };
}

/** A sync job: its Application rendered at the operation's revision, then the engine's operation. */
async function runSync<Target, ClusterT>(
  deps: EngineSyncRunnerDeps<Target, ClusterT>,
  ctx: SyncRunnerContext<SyncJob>,
  logger: RunnerLogger,
): Promise<OperationState> {
  const { application, operation } = ctx.request;
  let prepared: { app: Application; rendered: RenderedApplication<Target>; cluster: ClusterT };
  try {
    const app = withOperationSource(await deps.application(application, ctx.request), operation);
    // On resume, render the revision the operation already resolved, so the same manifests are applied.
    const revision = ctx.initialState?.syncResult.revision || operation.revision;
    // Not waited for past a cancel: a render stuck in git, helm or kustomize (each bounded by its own timeout)
    // is left to end on its own, its result dropped.
    const rendered = await untilAborted(deps.render(app, { revision, signal: ctx.signal }), ctx.signal);
    prepared = { app, rendered, cluster: deps.clusterFor(app) };
  } catch (error) {
    // Cancelled while rendering: terminated as the engine terminates, before anything was applied.
    if (ctx.signal.aborted && !resumesCompleted(ctx)) {
      logger.info({}, 'operation terminated while rendering');
      return reportStartFailure(ctx, TERMINATED, 'Failed');
    }
    // A completed operation (resumed for its health step only) did start: its outcome is not this error's. The
    // queue ends the job from the saved state, health Unknown, once retries are spent (sync-processor.ts).
    if (isTransientError(error) || resumesCompleted(ctx)) throw error;
    logger.warn({ err: messageOf(error) }, 'operation could not start');
    return reportStartFailure(ctx, error);
  }
  logger.info(
    { revision: prepared.rendered.revision, resumed: ctx.initialState !== undefined },
    'operation started',
  );
  const ignored = ignoreDifferencesOf(prepared.app);
  for (const warning of ignored.warnings) logger.warn({ warning }, 'ignoreDifferences option not honoured');
  const state = await deps.runOperation({
    application,
    ignoreDifferences: ignored.rules,
    ...(prepared.app.syncPolicy?.managedNamespaceMetadata
      ? { managedNamespaceMetadata: prepared.app.syncPolicy.managedNamespaceMetadata }
      : {}),
    // Said in the thread (OperationStarted) as `wavesync plan` says them: Argo CD's silent fallbacks.
    warnings: [
      ...(ctx.request.rollback ? rollbackWarnings(ctx.request.rollback, operation, prepared.app) : []),
      ...applicationWarnings(prepared.app),
      ...(prepared.rendered.warnings ?? []),
    ],
    targets: prepared.rendered.targets,
    namespace: prepared.app.destination.namespace ?? 'default',
    revision: prepared.rendered.revision,
    operation: withApplicationSyncOptions(prepared.app, operation),
    cluster: prepared.cluster,
    reporter: ctx.reporter,
    ...(ctx.initialState ? { initialState: ctx.initialState } : {}),
    // Saved with the source too: a job ended from its saved final state (its worker stopped after the last
    // persist) records the source in its history entry all the same.
    persist: (s) => ctx.persist(withSyncedSource(s, prepared.app)),
    signal: ctx.signal,
    pruneConfirmation: () => ctx.pruneConfirmation(),
    logger,
  });
  logger.info({ phase: state.phase, message: state.message }, 'operation finished');
  return withSyncedSource(state, prepared.app);
}

/** The job resumes a completed operation saved before its Application health (only the health step is left). */
function resumesCompleted(ctx: SyncRunnerContext): boolean {
  const saved = ctx.initialState;
  return saved?.finishedAt !== undefined && isCompleted(saved.phase);
}

/**
 * `state` with the source as synced, for the history entry (Argo CD's SyncOperationResult.source →
 * RevisionHistory.source): `app`'s source (the operation's source on a rollback), unless the state has one.
 */
function withSyncedSource(state: OperationState, app: Application): OperationState {
  if (state.syncResult.source) return state;
  const sources = app.sources ? { sources: app.sources } : {};
  return { ...state, syncResult: { ...state.syncResult, source: app.source, ...sources } };
}

/** `work`, or a rejection as soon as `signal` aborts (whichever comes first). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
