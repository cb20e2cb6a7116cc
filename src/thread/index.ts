/**
 * The sync's thread: what a sync tells in its chat thread and how it gets there — the story of its events
 * (lines, header states, summary), the durable outbox, delivery through chat outages and rate limits, per-channel
 * pacing shared through Redis, the call budget, sync headers, App of Apps child lines and one-off thread replies.
 * It codes against the chat port (./chat.ts: ChatTransport) and the presentation port (SyncThreadWording,
 * ChildLineReporterOptions.line), which src/slack/ implements; its Redis stores are its own (redis-*.ts).
 */

export { ChannelPacer, type ChannelSlots } from './channel-pacer.js';
export {
  ChatError,
  type ChatFailure,
  type ChatMessage,
  type ChatTransport,
  type LabelledMessage,
  type MessageLabel,
} from './chat.js';
export {
  type ChildLineReporterOptions,
  type ChildLineStore,
  type ChildLineView,
  createChildLineReporter,
} from './child-line-reporter.js';
export { type DeliveryLogger, deliver } from './delivery.js';
export {
  deliverSyncHeader,
  findHeaderByKey,
  HEADER_EVENT_TYPE,
} from './header-delivery.js';
export { startOutboxSweeper } from './outbox-sweeper.js';
export type { PostedLines } from './posted-lines.js';
export { createSharedChannelPacer } from './redis-channel-pacer.js';
export { redisChildLineStore } from './redis-child-line-store.js';
export { redisPostedLines } from './redis-posted-lines.js';
export { redisThreadOutbox, redisThreadOutboxes } from './redis-thread-outbox.js';
export {
  createSyncThreadReporter,
  type SyncThreadReporter,
  type SyncThreadReporterOptions,
} from './sync-thread-reporter.js';
export {
  isAlarming,
  type OperationHeaderState,
  type SyncSummary,
  type SyncThreadWording,
} from './sync-thread-wording.js';
export type { ThreadOutbox } from './thread-outbox.js';
export { postThreadReply, threadNotePoster } from './thread-reply.js';
