/**
 * What drift detection does in Slack for one action of a drift episode (src/drift):
 *
 * - `notify`: post the drift notice (OutOfSync: N resources differ, the first differences, a Sync button) in the
 *   Application's channel and remember it for the episode;
 * - `resolved`: edit that notice to "✅ back in sync" (chat.update, no new message);
 * - `sync` (selfHeal, decided by src/drift/self-heal.ts): post a normal header in the channel whose thread starts
 *   with a line saying why, then request the sync through src/requests requestSync (origin `self-heal`: queued as
 *   `wavesync (selfHeal)`, pruning only with `syncPolicy.automated.prune: true`, audited `self-heal`); without a
 *   channel the sync still runs, unreported in Slack.
 *
 * Without a channel, notices are only logged.
 */
import type { WebClient } from '@slack/web-api';
import type { Application } from '../../domain/index.js';
import {
  type DriftAction,
  type DriftNoticeRefs,
  type ResourceDifference,
  SELF_HEAL_INITIATOR,
  selfHealOperation,
  selfHealReason,
} from '../../drift/index.js';
import type { AuditEntry } from '../../environments/index.js';
import type { Logger } from '../../logger.js';
import { requestSync } from '../../requests/index.js';
import { headerViewOf } from '../commands/header-view.js';
import { driftNoticeBlocks, selfHealBlocks } from '../messages/drift-notice-blocks.js';
import { formatDestination } from '../messages/format.js';
import { syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { ApplicationCatalog, SyncQueueClient } from '../ports.js';

/** Who a self-heal sync is requested by (src/drift/self-heal.ts; kept here for its importers). */
export { SELF_HEAL_INITIATOR };

export interface DriftNoticesDeps {
  client: WebClient;
  catalog: ApplicationCatalog;
  queue: Pick<SyncQueueClient, 'enqueueSync'>;
  refs: DriftNoticeRefs;
  /** The channel id for the Application's drift messages (src/environments/auto-sync-policy.ts), or undefined. */
  channelOf(app: Application): string | undefined;
  /** Why `app` is not self-healed, for the notice (e.g. `selfHeal not allowed in production`); optional. */
  whyNotAutomatic?(app: Application): string | undefined;
  /**
   * Records each self-heal sync in the Application's audit log (`self-heal`: the job, the thread, and what drifted,
   * since no person asked for it); optional.
   */
  audit?(entry: AuditEntry): Promise<unknown>;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export type DriftActionHandler = (
  app: Application,
  action: Exclude<DriftAction, { action: 'none' }>,
) => Promise<void>;

/** The detector's `onAction`. Rejects when Slack or the queue fails (the detector logs it). */
export function createDriftNotices(deps: DriftNoticesDeps): DriftActionHandler {
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
      case 'sync':
        return selfHeal(deps, app, action.differences, channel);
    }
  };
}

/** The Slack side of a self-heal sync: its header and why-line in the channel; requestSync queues it. */
async function selfHeal(
  deps: DriftNoticesDeps,
  app: Application,
  differences: readonly ResourceDifference[],
  channel: string | undefined,
): Promise<void> {
  const operation = selfHealOperation(app);
  let target: { channel: string; threadTs: string } | undefined;
  if (channel) {
    const base = headerViewOf(deps.catalog, {
      application: app.name,
      operation,
      initiator: SELF_HEAL_INITIATOR,
    });
    const header = syncHeaderBlocks({ ...base, state: { kind: 'received' } });
    const posted = await deps.client.chat.postMessage({ channel, text: header.text, blocks: header.blocks });
    target = { channel, threadTs: posted.ts! };
    const line = selfHealBlocks(differences, operation.prune);
    await deps.client.chat.postMessage({
      channel,
      thread_ts: posted.ts!,
      text: line.text,
      blocks: line.blocks,
    });
  }
  await requestSync(
    {
      queue: deps.queue,
      ...(deps.audit ? { audit: deps.audit } : {}),
      ...(deps.logger ? { logger: deps.logger } : {}),
    },
    {
      origin: 'self-heal',
      request: { application: app.name, operation, initiator: SELF_HEAL_INITIATOR, target },
      reason: selfHealReason(differences, operation.prune),
    },
  );
}
