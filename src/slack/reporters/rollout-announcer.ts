/**
 * The Slack RolloutAnnouncer (the port is declared by src/app-of-apps): the lines a rollout posts in its thread — each
 * step as it begins, the placeholder an approval request replaces, the summary (also shown in the channel when the
 * rollout stopped). Paced per channel like every post; delivery problems are logged, never thrown.
 */
import type { WebClient } from '@slack/web-api';
import type { RolloutAnnouncer } from '../../app-of-apps/index.js';
import type { ReportTarget } from '../../queue/index.js';
import {
  approvalPlaceholderBlocks,
  rolloutSummaryBlocks,
  stepStartingBlocks,
} from '../messages/rollout-blocks.js';
import type { ChannelPacer } from './channel-pacer.js';
import { type DeliveryLogger, deliver } from './slack-delivery.js';
import { postThreadReply } from './thread-reply.js';

export function createSlackRolloutAnnouncer(deps: {
  client: WebClient;
  pacer: ChannelPacer;
  logger?: DeliveryLogger;
}): RolloutAnnouncer {
  return {
    stepStarting: (target, step) =>
      postThreadReply(deps, target, stepStartingBlocks(step), { what: 'rollout step line' }),
    rolloutEnded: (target, summary) =>
      postThreadReply(deps, target, rolloutSummaryBlocks(summary), {
        broadcast: summary.stopped !== undefined,
        what: 'rollout summary',
      }),
    async approvalPlaceholder(target: ReportTarget, application: string, step: number) {
      const message = approvalPlaceholderBlocks(application, step);
      await deps.pacer.acquire(target.channel);
      const posted = await deliver(
        () =>
          deps.client.chat.postMessage({
            channel: target.channel,
            thread_ts: target.threadTs,
            text: message.text,
            blocks: message.blocks,
          }),
        {
          channel: target.channel,
          pacer: deps.pacer,
          what: 'rollout approval placeholder',
          ...(deps.logger ? { logger: deps.logger } : {}),
        },
      );
      const ts = posted.ok ? posted.value?.ts : undefined;
      return ts ? { channel: target.channel, ts } : undefined;
    },
  };
}
