/**
 * The Slack RolloutAnnouncer (the port is declared by src/app-of-apps): the lines a rollout posts in its thread — each
 * step as it begins, the placeholder an approval request replaces, the summary (also shown in the channel when the
 * rollout stopped). Paced per channel like every post; delivery problems are logged, never thrown.
 */
import type { WebClient } from '@slack/web-api';
import type { RolloutAnnouncer } from '../../app-of-apps/index.js';
import type { ReportTarget } from '../../queue/index.js';
import { type ChannelPacer, type DeliveryLogger, deliver, postThreadReply } from '../../thread/index.js';
import {
  approvalPlaceholderBlocks,
  rolloutSummaryBlocks,
  stepStartingBlocks,
} from '../messages/rollout-blocks.js';
import { slackChat } from '../slack-chat.js';

export function createSlackRolloutAnnouncer(deps: {
  client: WebClient;
  pacer: ChannelPacer;
  logger?: DeliveryLogger;
}): RolloutAnnouncer {
  const chat = slackChat(deps.client);
  const replies = { ...deps, chat };
  return {
    stepStarting: (target, step) =>
      postThreadReply(replies, target, stepStartingBlocks(step), { what: 'rollout step line' }),
    rolloutEnded: (target, summary) =>
      postThreadReply(replies, target, rolloutSummaryBlocks(summary), {
        broadcast: summary.stopped !== undefined,
        what: 'rollout summary',
      }),
    async approvalPlaceholder(target: ReportTarget, application: string, step: number) {
      const message = approvalPlaceholderBlocks(application, step);
      await deps.pacer.acquire(target.channel);
      const posted = await deliver(() => chat.post(target.channel, message, { threadTs: target.threadTs }), {
        channel: target.channel,
        pacer: deps.pacer,
        what: 'rollout approval placeholder',
        ...(deps.logger ? { logger: deps.logger } : {}),
      });
      const ts = posted.ok ? posted.value : undefined;
      return ts ? { channel: target.channel, ts } : undefined;
    },
  };
}
