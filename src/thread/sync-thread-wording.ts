/**
 * What a sync's thread says, as a port: the thread decides which event becomes which line, when, and how often
 * (./thread-story.ts); the chat's presentation words each one (in Slack, Block Kit: slackThreadWording in
 * src/slack/reporters/slack-reporter.ts). Also the thread's own vocabulary the presentation reads: the header's
 * states while an operation runs and after it, and the summary of an ended operation.
 */
import type {
  CancelledBy,
  HealthStatus,
  OperationPhase,
  OperationState,
  SyncEvent,
  TaskRef,
  WaveRef,
} from '../domain/index.js';
import type { ChatMessage } from './chat.js';

/** The event of type `T`. */
type EventOf<T extends SyncEvent['type']> = Extract<SyncEvent, { type: T }>;

/** The header's state from the operation's start on (before it, the bot's command shows received/queued). */
export type OperationHeaderState =
  | {
      kind: 'running';
      elapsedMs: number;
      wave?: WaveRef;
      /** Why the wave is not done yet, per waiting object (WaveWaiting), e.g. `Deployment/web 0/1 ready: …`. */
      waiting?: string[];
    }
  | {
      kind: 'completed';
      phase: OperationPhase;
      durationMs: number;
      message: string;
      /** App health observed after the operation (HealthAssessed), when known. */
      health?: HealthStatus;
    }
  /**
   * Cancelled by a person (`/sync cancel` or the Cancel button): before it started, or terminated while running
   * (`durationMs` and the operation's `message`, e.g. "Operation terminated"). Not a failure.
   */
  | { kind: 'cancelled'; by: string; reason?: string; durationMs?: number; message?: string };

/** An ended operation, as its final thread reply tells it. */
export interface SyncSummary {
  phase: OperationPhase;
  message: string;
  durationMs: number;
  state?: OperationState;
  /** From HealthAssessed; absent when the operation failed before health was assessed. */
  health?: { health: HealthStatus; afterMs: number; unhealthy: { task: TaskRef; health: HealthStatus }[] };
  /** A person terminated the operation (`/sync cancel`, Cancel): shown as cancelled, not as a failure. */
  cancelledBy?: CancelledBy;
}

/**
 * True when the outcome should alert people: the sync failed, or it succeeded but the app is not Healthy. A sync a
 * person cancelled is not alarming (they know). An alarming summary is also shown in the channel.
 */
export function isAlarming(summary: Pick<SyncSummary, 'phase' | 'health' | 'cancelledBy'>): boolean {
  if (summary.cancelledBy) return false;
  return (
    summary.phase !== 'Succeeded' ||
    (summary.health !== undefined && summary.health.health.status !== 'Healthy')
  );
}

/** The words of one sync's thread (the presentation knows the sync's header: its Application, command, job). */
export interface SyncThreadWording {
  /** The header in `state`; `revision` is the resolved one once the operation started (before: the requested). */
  header(state: OperationHeaderState, revision: string | undefined): ChatMessage;
  /** The plan's warnings and Argo CD's silent fallbacks, before the first wave. */
  planWarnings(warnings: readonly string[]): ChatMessage;
  waveStarted(event: EventOf<'WaveStarted'>): ChatMessage;
  hookFinished(event: EventOf<'HookFinished'>): ChatMessage;
  /** `waitedFor`: what the wave's resources last waited for, when no header update showed it. */
  waveCompleted(event: EventOf<'WaveCompleted'>, waitedFor: readonly string[]): ChatMessage;
  /** The sync waits for someone to confirm its prunes. */
  pruneConfirmation(event: EventOf<'PruneConfirmationRequired'>): ChatMessage;
  syncFailStarted(event: EventOf<'SyncFailStarted'>): ChatMessage;
  resourcesDeleted(event: EventOf<'ResourcesDeleted'>): ChatMessage;
  resourcesKept(event: EventOf<'ResourcesKept'>): ChatMessage;
  deletionHookFinished(event: EventOf<'DeletionHookFinished'>): ChatMessage;
  /** The final reply (a deletion's, or a sync's with what undoes it when the Application can be rolled back). */
  summary(summary: SyncSummary): ChatMessage;
}
