/**
 * What the revision watcher shows in Slack (src/revisions RevisionAnnouncer), in the Application's channel (the
 * drift channel: `wavesync.io/channel`, the environment's `notifications.channel`, `defaults.driftDetection.channel`):
 *
 * - an automated sync's header, `triggered by push 3f9c2e1 from GitHub`, whose thread the sync then reports into;
 * - "main moved to 3f9c2e1 …" with Sync and Diff buttons, remembered as the Application's newest such message (a
 *   Sync click on an older one is refused as stale);
 * - "the automated sync waits" during a freeze window.
 *
 * Without a channel, moves are only logged. Nothing here queues a sync.
 */
import type { WebClient } from '@slack/web-api';
import type { Application } from '../../domain/index.js';
import type { Logger } from '../../logger.js';
import {
  AUTOMATED_INITIATOR,
  type RevisionAnnouncer,
  type RevisionMove,
  type RevisionNoticeRefs,
  shortRevision,
} from '../../revisions/index.js';
import { formatDestination } from '../messages/format.js';
import { revisionNoticeBlocks, revisionWaitBlocks } from '../messages/revision-notice-blocks.js';
import type { ApplicationCatalog } from '../ports.js';
import { postSyncHeader } from './post-sync-header.js';

export interface RevisionNoticesDeps {
  client: WebClient;
  catalog: ApplicationCatalog;
  refs: Pick<RevisionNoticeRefs, 'save'>;
  channelOf(app: Application): string | undefined;
  logger?: Pick<Logger, 'info'>;
}

export function createRevisionAnnouncer(deps: RevisionNoticesDeps): RevisionAnnouncer {
  const destinationOf = (app: Application) => {
    const summary = deps.catalog.describe(app.name);
    return summary?.environment ?? formatDestination(summary?.destination ?? app.destination);
  };
  const whatOf = (move: RevisionMove) =>
    move.git?.branch ?? (move.app.sources ? 'sources' : (move.app.source.targetRevision ?? 'HEAD'));
  return {
    async syncHeader(app, operation, trigger) {
      const channel = deps.channelOf(app);
      if (!channel) return undefined;
      return postSyncHeader(deps.client, deps.catalog, channel, {
        application: app.name,
        operation,
        initiator: AUTOMATED_INITIATOR,
        trigger,
      });
    },
    async newRevision(move, commit, why) {
      const channel = deps.channelOf(move.app);
      const view = {
        application: move.app.name,
        destination: destinationOf(move.app),
        what: whatOf(move),
        revision: shortRevision(move.to),
        fullRevision: move.pin ?? move.to,
        ...(commit ? { commit } : {}),
        why,
      };
      const message = revisionNoticeBlocks(view);
      if (!channel) return void deps.logger?.info({ application: move.app.name }, message.text);
      const posted = await deps.client.chat.postMessage({
        channel,
        text: message.text,
        blocks: message.blocks,
      });
      await deps.refs.save(move.app.name, { channel, ts: posted.ts!, revision: view.fullRevision });
    },
    async waiting(move, reason) {
      const channel = deps.channelOf(move.app);
      const message = revisionWaitBlocks({
        application: move.app.name,
        destination: destinationOf(move.app),
        what: whatOf(move),
        revision: shortRevision(move.to),
        reason,
      });
      if (!channel) return void deps.logger?.info({ application: move.app.name }, message.text);
      await deps.client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    },
  };
}
