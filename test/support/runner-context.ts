/**
 * A SyncRunnerContext for unit tests of runners (src/sync-run, src/deletion): job `job-1` syncing `guestbook` at
 * `main` for pat into thread C1/1.1, its events and persisted states recorded in order; `request` fields replace the
 * default request's whole.
 */
import type { OperationState, SyncEvent } from '../../src/domain/index.js';
import type { RunnerLogger, SyncRequest, SyncRunnerContext } from '../../src/queue/index.js';

export function runnerContext(request: Partial<SyncRequest> = {}, initialState?: OperationState) {
  const events: SyncEvent[] = [];
  const persisted: OperationState[] = [];
  const ctx: SyncRunnerContext = {
    jobId: 'job-1',
    request: {
      application: 'guestbook',
      operation: { revision: 'main', prune: false, dryRun: false, syncOptions: [] },
      initiator: { userId: 'U1', userName: 'pat' },
      target: { channel: 'C1', threadTs: '1.1' },
      requestKey: 'k',
      ...request,
    },
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
