/**
 * What drift detection shows in Slack for a drift episode (src/drift's ports DriftNoticePort and
 * SelfHealAnnouncer):
 *
 * - `notify`: post the drift notice (OutOfSync: N resources differ, the first differences, a Sync button) in the
 *   Application's channel and remember it for the episode;
 * - `resolved`: edit that notice to "✅ back in sync" (chat.update, no new message);
 * - a self-heal sync (selfHeal, decided and requested by src/drift): post a normal header in the channel whose
 *   thread starts with a line saying why; src/drift then queues the sync into that thread. Without a channel
 *   nothing is posted and the sync still runs, unreported in Slack.
 *
 * Without a channel, notices are only logged. Nothing here queues a sync.
 */
import type { WebClient } from '@slack/web-api';
import type { Application } from '../../domain/index.js';
import {
  type DriftNoticePort,
  type DriftNoticeRefs,
  SELF_HEAL_INITIATOR,
  type SelfHealAnnouncer,
} from '../../drift/index.js';
import type { Logger } from '../../logger.js';
import { driftNoticeBlocks, selfHealBlocks } from '../messages/drift-notice-blocks.js';
import { formatDestination } from '../messages/format.js';
import type { ApplicationCatalog } from '../ports.js';
import { postSyncHeader } from './post-sync-header.js';

export interface DriftNoticesDeps {
  client: WebClient;
  catalog: ApplicationCatalog;
  refs: DriftNoticeRefs;
  /** The channel id for the Application's drift messages (src/environments/auto-sync-policy.ts), or undefined. */
  channelOf(app: Application): string | undefined;
  /** Why `app` is not self-healed, for the notice (e.g. `selfHeal not allowed in production`); optional. */
  whyNotAutomatic?(app: Application): string | undefined;
  logger?: Pick<Logger, 'info'>;
}

/** The drift runtime's `notices` (notify, resolved). Rejects when Slack fails (the detector logs it). */
export function createDriftNotices(deps: DriftNoticesDeps): DriftNoticePort {
  const destinationOf = (app: Application) => {
    const summary = deps.catalog.describe(app.name);
    return summary?.environment ?? formatDestination(summary?.destination ?? app.destination);
  };
  return async (app, action) => {
    const channel = deps.channelOf(app);
    switch (action.action) {
      case 'notify': {
        if (!channel) return void deps.logger?.info({ application: app.name }, action.message);
        const why = deps.whyNotAutomatic?.(app);
        const message = driftNoticeBlocks({
          application: app.name,
          destination: destinationOf(app),
          differences: action.differences,
          state: { kind: 'out_of_sync', ...(why ? { why } : {}) },
        });
        const posted = await deps.client.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks,
        });
        await deps.refs.save(app.name, {
          channel,
          ts: posted.ts!,
          differences: action.differences.slice(0, 10),
        });
        return;
      }
      case 'resolved': {
        const ref = await deps.refs.take(app.name);
        if (!ref) return;
        const message = driftNoticeBlocks({
          application: app.name,
          destination: destinationOf(app),
          differences: ref.differences,
          state: { kind: 'resolved' },
        });
        await deps.client.chat.update({
          channel: ref.channel,
          ts: ref.ts,
          text: message.text,
          blocks: message.blocks,
        });
        return;
      }
    }
  };
}

/**
 * The Slack side of a self-heal sync (src/drift SelfHealAnnouncer): its header and why-line in the Application's
 * drift channel; resolves with the thread, or undefined without a channel. src/drift queues the sync.
 */
export function createSelfHealAnnouncer(
  deps: Pick<DriftNoticesDeps, 'client' | 'catalog' | 'channelOf'>,
): SelfHealAnnouncer {
  return async (app, operation, differences) => {
    const channel = deps.channelOf(app);
    if (!channel) return undefined;
    const { threadTs } = await postSyncHeader(deps.client, deps.catalog, channel, {
      application: app.name,
      operation,
      initiator: SELF_HEAL_INITIATOR,
    });
    const line = selfHealBlocks(differences, operation.prune);
    await deps.client.chat.postMessage({
      channel,
      thread_ts: threadTs,
      text: line.text,
      blocks: line.blocks,
    });
    return { channel, threadTs };
  };
}
