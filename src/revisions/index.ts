/**
 * Sync on push: the revision watcher (each Application's targetRevision resolved again every poll and on every
 * webhook, one `git ls-remote` per repository), what a moved revision does (an automated sync, an approval request,
 * or a "main moved" message), the `POST /api/webhook` endpoint of the git hosts, and their Redis state.
 */
export {
  AUTOMATED_INITIATOR,
  createMoveActions,
  type RevisionAnnouncer,
  shortRevision,
} from './act-on-move.js';
export {
  type RevisionNoticeRefs,
  redisDeliveryLog,
  redisRevisionLease,
  redisRevisionNoticeClaims,
  redisRevisionNoticeRefs,
  redisRevisionStore,
} from './redis-revision-store.js';

export {
  createRevisionWatcher,
  type RevisionMove,
  type RevisionWatcher,
} from './revision-watcher.js';

export {
  createWebhookHandler,
  WEBHOOK_PATH,
} from './webhook/webhook-handler.js';

export { webhookSecretsOf } from './webhook/webhook-secrets.js';
