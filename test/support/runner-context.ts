/**
 * SyncRunnerContexts for unit tests of runners (src/sync-run, src/deletion): job `job-1` of pat into thread C1/1.1,
 * its events and persisted states recorded in order. `runnerContext` syncs `guestbook` at `main` (`request` fields
 * replace the default request's whole); `deletionRunnerContext` deletes `guestbook`.
 */
import type { OperationState, SyncEvent } from '../../src/domain/index.js';
import type {
  DeletionJob,
  QueuedDeletion,
  RunnerLogger,
  SyncJob,
  SyncRequest,
  SyncRunnerContext,
} from '../../src/queue/index.js';

const job = {
  application: 'guestbook',
  initiator: { userId: 'U1', userName: 'pat' },
  target: { channel: 'C1', threadTs: '1.1' },
  requestKey: 'k',
};

export function runnerContext(request: Partial<SyncJob> = {}, initialState?: OperationState) {
  const operation = { revision: 'main', prune: false, dryRun: false, syncOptions: [] };
  return contextOf<SyncJob>({ ...job, operation, ...request }, initialState);
}

export function deletionRunnerContext(deletion: QueuedDeletion, initialState?: OperationState) {
  return contextOf<DeletionJob>({ ...job, deletion }, initialState);
}

function contextOf<R extends SyncRequest>(request: R, initialState: OperationState | undefined) {
  const events: SyncEvent[] = [];
  const persisted: OperationState[] = [];
  const ctx: SyncRunnerContext<R> = {
    jobId: 'job-1',
    request,
    initialState,
    reporter: { report: async (e) => void events.push(e), close: async () => {} },
    persist: async (s) => void persisted.push(s),
    signal: new AbortController().signal,
    pruneConfirmation: async () => undefined,
  };
  return { ctx, events, persisted };
}

/** A runner logger that says nothing. */
export const SILENT_RUNNER_LOGGER: RunnerLogger = { debug() {}, info() {}, warn() {} };
