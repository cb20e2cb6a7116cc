/**
 * The sync's thread in Slack: the thread's reporters (src/thread: the story, the outbox, paced delivery) over this
 * bot's Web API client (slackChat), worded with Block Kit — the header (messages/sync-header-blocks.ts), one reply
 * per wave start and completion, per hook outcome, the plan's warnings, a prune confirmation, the SyncFail phase, a
 * deletion's lines, and the summary with its Roll back button when the Application can be rolled back — and an App
 * of Apps child's line in its parent's thread (messages/app-of-apps-blocks.ts).
 */
import type { WebClient } from '@slack/web-api';
import {
  type ChildLineReporterOptions,
  createChildLineReporter,
  createSyncThreadReporter,
  type SyncThreadReporter,
  type SyncThreadReporterOptions,
  type SyncThreadWording,
} from '../../thread/index.js';
import { childLineBlocks } from '../messages/app-of-apps-blocks.js';
import {
  deletionHookBlocks,
  deletionSummaryBlocks,
  resourcesDeletedBlocks,
  resourcesKeptBlocks,
} from '../messages/deletion-blocks.js';
import { hookOutcomeBlocks } from '../messages/hook-outcome-blocks.js';
import { planWarningsBlocks } from '../messages/plan-warnings-blocks.js';
import { type SyncHeaderView, syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import { syncSummaryBlocks } from '../messages/sync-summary-blocks.js';
import { waveCompletedBlocks } from '../messages/wave-completed-blocks.js';
import {
  pruneConfirmationBlocks,
  syncFailStartedBlocks,
  waveStartedBlocks,
} from '../messages/wave-started-blocks.js';
import type { SyncReporter } from '../ports.js';
import { slackChat } from '../slack-chat.js';

export interface SlackReporterOptions
  extends Omit<SyncThreadReporterOptions, 'chat' | 'wording' | 'jobId' | 'deletion'> {
  /** A WebClient created with `rejectRateLimitedCalls: true` (see createSlackWebClient). */
  client: WebClient;
  /** Everything the header shows besides its state (its job id, whether it deletes, …). */
  header: Omit<SyncHeaderView, 'state'>;
}

/** The thread reporter of one job, in Slack. */
export function createSlackReporter(options: SlackReporterOptions): SyncThreadReporter {
  const { client, header, ...thread } = options;
  return createSyncThreadReporter({
    ...thread,
    chat: slackChat(client),
    wording: slackThreadWording(header),
    ...(header.jobId ? { jobId: header.jobId } : {}),
    ...(header.deletion ? { deletion: true } : {}),
  });
}

/** The line of an App of Apps child (or a rollout's Application) in its parent's thread, in Slack. */
export function createSlackChildLineReporter(
  options: Omit<ChildLineReporterOptions, 'chat' | 'line'> & { client: WebClient },
): SyncReporter {
  const { client, ...line } = options;
  return createChildLineReporter({ ...line, chat: slackChat(client), line: childLineBlocks });
}

/** Block Kit words for the thread of the sync whose header shows `view`. */
function slackThreadWording(view: Omit<SyncHeaderView, 'state'>): SyncThreadWording {
  return {
    header: (state, revision) =>
      syncHeaderBlocks({ ...view, ...(revision === undefined ? {} : { revision }), state }),
    planWarnings: planWarningsBlocks,
    waveStarted: waveStartedBlocks,
    hookFinished: hookOutcomeBlocks,
    waveCompleted: waveCompletedBlocks,
    pruneConfirmation: (event) => pruneConfirmationBlocks(event, view.application),
    syncFailStarted: syncFailStartedBlocks,
    resourcesDeleted: resourcesDeletedBlocks,
    resourcesKept: resourcesKeptBlocks,
    deletionHookFinished: deletionHookBlocks,
    summary: (summary) =>
      view.deletion
        ? deletionSummaryBlocks({ ...summary, application: view.application })
        : syncSummaryBlocks(
            summary,
            view.rollbackable
              ? { application: view.application, ...(view.jobId ? { jobId: view.jobId } : {}) }
              : undefined,
          ),
  };
}
