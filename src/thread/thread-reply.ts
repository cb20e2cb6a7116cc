/**
 * One reply in a thread, outside any operation's reporter (App of Apps lines, a rollout's lines, a scheduled
 * `syncPolicy.retry`): paced per channel like every post; delivery problems are logged, never thrown (deliver).
 */
import type { ReportTarget } from '../queue/index.js';
import type { ChannelPacer } from './channel-pacer.js';
import type { ChatMessage, ChatTransport } from './chat.js';
import { type DeliveryLogger, deliver } from './delivery.js';

export interface ThreadReplyDeps {
  chat: ChatTransport;
  pacer: ChannelPacer;
  logger?: DeliveryLogger;
}

/** Post `message` in `target`'s thread; `broadcast` also shows it in the channel. */
export async function postThreadReply(
  deps: ThreadReplyDeps,
  target: ReportTarget,
  message: ChatMessage,
  options: { broadcast?: boolean; what: string },
): Promise<void> {
  await deps.pacer.acquire(target.channel);
  await deliver(
    () =>
      deps.chat.post(target.channel, message, {
        threadTs: target.threadTs,
        broadcast: options.broadcast ?? false,
      }),
    {
      channel: target.channel,
      pacer: deps.pacer,
      what: options.what,
      ...(deps.logger ? { logger: deps.logger } : {}),
    },
  );
}

/** A plain-text thread note (the retry line of `syncPolicy.retry`). */
export function threadNotePoster(
  deps: ThreadReplyDeps,
): (target: ReportTarget, text: string) => Promise<void> {
  return (target, text) => postThreadReply(deps, target, deps.chat.note(text), { what: 'thread note' });
}
