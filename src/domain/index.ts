/** The Argo CD vocabulary, dependency-free. Every layer may import this module. */
export {
  Annotations,
  DEFAULT_RESOURCE_TRACKING,
  HOOK_FINALIZER,
  OPERATION_ANNOTATION,
  type ResourceTracking,
  TRACKING_LABEL,
  TRACKING_METHODS,
  type TrackingMethod,
} from './annotations.js';
export {
  type Application,
  type ApplicationDestination,
  type ApplicationSource,
  type ApplicationSourceDirectory,
  type ApplicationSourceHelm,
  type ApplicationSourceKustomize,
  type ApplicationSourcePlugin,
  hasOnlyLocalSources,
  type NamespaceMetadata,
  originLocation,
  type RetryStrategy,
  sourcesOf,
  withApplicationSyncOptions,
  withOperationSource,
} from './application.js';
export { BotError, type BotErrorCode, ManifestError } from './errors.js';
export {
  HEALTH_STATUS_CODES,
  type HealthStatus,
  type HealthStatusCode,
  worstHealth,
} from './health-status.js';
export { DNS1123_SUBDOMAIN, NAME_MESSAGES, type NameRule, nameProblems, nameRuleOf } from './object-name.js';
export {
  isCompleted,
  type OperationPhase,
  type OperationState,
  type ResourceResult,
  type ResultCode,
  type SyncOperation,
  type SyncOperationResource,
  type SyncStatusCode,
} from './operation.js';
export { reasonForPeople, withoutAddresses } from './reason-for-people.js';
export {
  DELETION_CASCADES,
  type DeletionCascade,
  type DeletionRequest,
  type Initiator,
  type PromotionRef,
  type RevisionTrigger,
  type RollbackRef,
} from './request-refs.js';
export {
  formatResourceKey,
  type KubeObject,
  type ObjectMeta,
  type OwnerReference,
  type ResourceKey,
  resourceKeyOf,
  shortName,
  splitApiVersion,
} from './resource.js';
export { displayRevision, joinRevisions, splitRevisions } from './revision.js';
export type { CancelledBy, SyncEvent, TaskRef, WaveRef } from './sync-event.js';
export {
  HOOK_DELETE_POLICIES,
  type HookDeletePolicy,
  type HookType,
  isHookDeletePolicy,
  isSyncPhase,
  SYNC_PHASE_ORDINAL,
  SYNC_PHASES,
  type SyncPhase,
  type SyncWave,
} from './sync-phase.js';
