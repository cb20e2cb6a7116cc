/**
 * The Slack AppOfAppsAnnouncer (the port is declared by src/app-of-apps): the App of Apps lines the chain itself
 * posts in the parent's thread (not tied to one child's operation) — the children about to be synced, the final
 * summary, and why no child was synced. Paced per channel like every post.
 */
import type { WebClient } from '@slack/web-api';
import type { AppOfAppsAnnouncer } from '../../app-of-apps/index.js';
import type { ReportTarget } from '../../queue/index.js';
import { type ChannelPacer, type DeliveryLogger, postThreadReply } from '../../thread/index.js';
import {
  appOfAppsSummaryBlocks,
  childrenNotSyncedBlocks,
  childrenStartingBlocks,
} from '../messages/app-of-apps-blocks.js';
import type { SlackMessage } from '../messages/block.js';
import { slackChat } from '../slack-chat.js';

/** The Slack announcer; delivery problems are logged, never thrown (deliver). */
export function createSlackAppOfAppsAnnouncer(deps: {
  client: WebClient;
  pacer: ChannelPacer;
  logger?: DeliveryLogger;
}): AppOfAppsAnnouncer {
  const replies = { ...deps, chat: slackChat(deps.client) };
  /** `broadcast`: also show the reply in the channel, as a failed sync's summary is. */
  const post = (target: ReportTarget, message: SlackMessage, broadcast = false) =>
    postThreadReply(replies, target, message, { broadcast, what: 'app of apps line' });
  return {
    childrenStarting: (target, plan) => post(target, childrenStartingBlocks(plan)),
    // The parent's header already says Succeeded: a chain that did not end all Healthy must be seen in the
    // channel too, not only inside the thread.
    chainEnded: (target, summary) =>
      post(target, appOfAppsSummaryBlocks(summary), summary.healthy.length < summary.total),
    childrenNotSynced: (target, parent, reason) =>
      post(target, childrenNotSyncedBlocks(parent, reason), true),
  };
}
