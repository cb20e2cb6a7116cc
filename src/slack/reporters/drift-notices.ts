/**
 * What drift detection does in Slack for one action of a drift episode (src/drift):
 *
 * - `notify`: post the drift notice (OutOfSync: N resources differ, the first differences, a Sync button) in the
 *   Application's channel and remember it for the episode;
 * - `resolved`: edit that notice to "✅ back in sync" (chat.update, no new message);
 * - `sync` (selfHeal in an environment that allows it): enqueue a sync as `wavesync (selfHeal)`, pruning only with
 *   `syncPolicy.automated.prune: true` (Argo CD's rule), under a normal header in the channel whose thread starts
 *   with a line saying why; without a channel the sync still runs, unreported in Slack.
 *
 * Without a channel, notices are only logged.
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Application, SyncOperation } from '../../domain/index.js';
import type { DriftAction, DriftNoticeRefs, ResourceDifference } from '../../drift/index.js';
import type { AuditEntry } from '../../environments/index.js';
import type { Logger } from '../../logger.js';
import type { Initiator } from '../../queue/sync-reporter.js';
import { headerViewOf } from '../commands/header-view.js';
import { driftNoticeBlocks, selfHealBlocks } from '../messages/drift-notice-blocks.js';
import { formatDestination } from '../messages/format.js';
import { syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { ApplicationCatalog, SyncQueueClient } from '../ports.js';

/** Who a self-heal sync is requested by (shown in its header and history). */
export const SELF_HEAL_INITIATOR: Initiator = {
  userId: 'wavesync (selfHeal)',
  userName: 'wavesync (selfHeal)',
};

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

async function selfHeal(
  deps: DriftNoticesDeps,
  app: Application,
  differences: readonly ResourceDifference[],
  channel: string | undefined,
): Promise<void> {
  const prune = app.syncPolicy?.automated?.prune === true;
  const operation: SyncOperation = { prune, dryRun: false, syncOptions: [] };
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
    const line = selfHealBlocks(differences, prune);
    await deps.client.chat.postMessage({
      channel,
      thread_ts: posted.ts!,
      text: line.text,
      blocks: line.blocks,
    });
  }
  const result = await deps.queue.enqueueSync({
    application: app.name,
    operation,
    initiator: SELF_HEAL_INITIATOR,
    target,
    requestKey: `selfheal:${app.name}:${randomUUID()}`,
  });
  deps.logger?.info({ application: app.name, jobId: result.jobId, prune }, 'self-heal sync queued');
  const drifted = differences.map((d) => `${d.key.kind}/${d.key.name} (${d.reason})`);
  await deps
    .audit?.({
      type: 'self-heal',
      trigger: 'selfHeal',
      application: app.name,
      jobId: result.jobId,
      reason: `selfHeal (syncPolicy.automated${prune ? ', prune' : ''}): drift in ${drifted.length} resource(s): ${drifted.slice(0, 10).join(', ')}${drifted.length > 10 ? ', …' : ''}`,
      ...(target ? { channel: target.channel, messageTs: target.threadTs } : {}),
    })
    .catch((err: unknown) => deps.logger?.warn({ err, application: app.name }, 'self-heal not audited'));
}
