/**
 * Sync on push: the revision watcher (each Application's targetRevision resolved again every poll and on every
 * webhook, one `git ls-remote` per repository), what a moved revision does (an automated sync, an approval request,
 * or a "main moved" message), the `POST /api/webhook` endpoint of the git hosts, and their Redis state.
 */
export {
  AUTOMATED_INITIATOR,
  createMoveActions,
  decideMove,
  type MoveDecision,
  type RevisionAnnouncer,
  shortRevision,
  triggerText,
} from './act-on-move.js';
export {
  type RevisionNoticeRef,
  type RevisionNoticeRefs,
  redisDeliveryLog,
  redisRevisionLease,
  redisRevisionNoticeRefs,
  redisRevisionStore,
} from './redis-revision-store.js';
export { normalizeRepoUrl } from './repo-url.js';
export { branchOf, resolveGitTarget } from './resolve-target.js';
export {
  createRevisionWatcher,
  isAutomated,
  type PollResult,
  type RevisionMove,
  type RevisionStore,
  type RevisionTrigger,
  type RevisionWatcher,
} from './revision-watcher.js';
export { generatePaths, MANIFEST_GENERATE_PATHS, pushConcerns } from './webhook/match-applications.js';
export {
  createWebhookHandler,
  DELIVERY_TTL_MS,
  type DeliveryLog,
  MAX_WEBHOOK_BYTES,
  WEBHOOK_PATH,
} from './webhook/webhook-handler.js';
export {
  envelopeOf,
  type PushEvent,
  pushesOf,
  verify,
  type WebhookProvider,
  type WebhookSecrets,
} from './webhook/webhook-payloads.js';
export { webhookSecretsOf } from './webhook/webhook-secrets.js';
