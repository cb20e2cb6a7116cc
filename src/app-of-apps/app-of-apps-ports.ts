/**
 * The ports the App of Apps runtime (app-of-apps-driver.ts) codes against. Adapters implement them: the Slack
 * announcer (src/slack/reporters/app-of-apps-announcer.ts), the Redis chain store (./redis-chain-store.ts); the
 * composition root (src/main/start-worker.ts) chooses which.
 */
import type { MessageRef } from '../environments/index.js';
import type { ReportTarget, RolloutChain, SyncJob } from '../queue/index.js';
import type { AppOfAppsSummary, ChildOutcome } from './app-of-apps.js';
import type { RolloutSummary } from './rollout.js';

/**
 * The lines the chain itself posts in the parent's thread (not tied to one child's operation). Implementations
 * resolve once the line is handed over; delivery problems are theirs to log, never thrown.
 */
export interface AppOfAppsAnnouncer {
  /** Before the first child: which children will be synced, in which order, and how they are gated. */
  childrenStarting(
    target: ReportTarget,
    plan: { parent: string; children: string[]; gateOnHealth: boolean },
  ): Promise<void>;
  /** After the last child, or the child that stopped the sequence. */
  chainEnded(target: ReportTarget, summary: AppOfAppsSummary): Promise<void>;
  /** The children could not be synced at all (e.g. an invalid child Application). */
  childrenNotSynced(target: ReportTarget, parent: string, reason: string): Promise<void>;
}

/**
 * What is done once per chain: its announcement (`announced`) and its final summary (`summary`); a rollout's
 * announcement of each step (`step-<n>`).
 */
export type ChainMilestone = 'announced' | 'summary' | `step-${number}`;

/**
 * A chain's state, shared by every worker (a child's hook runs on whichever worker ran the child), keyed by the
 * parent's BullMQ job id. Every method rejects when the store is unreachable (the hook fails; BullMQ retries it).
 */
export interface AppOfAppsChainStore {
  /** Resolves true for the first caller only, per chain and milestone (across workers and retried hooks). */
  once(parentJobId: string, milestone: ChainMilestone): Promise<boolean>;
  /**
   * Write `child`'s outcome — always when `overwrite`, else only if the child has none yet (its Running
   * placeholder) — and resolve with every outcome of the chain so far, by child name.
   */
  recordOutcome(
    parentJobId: string,
    child: string,
    outcome: ChildOutcome,
    options: { overwrite: boolean },
  ): Promise<Map<string, ChildOutcome>>;
}

/** Where the runtime logs (a pino logger fits): structured fields, then the message. */
export interface AppOfAppsLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** The lines a rollout itself posts in its thread (each Application's own line is its sync's). Never throws. */
export interface RolloutAnnouncer {
  /** A step begins: its Applications, how many at once, which wait for approval. */
  stepStarting(
    target: ReportTarget,
    step: {
      applicationSet: string;
      number: number;
      of: number;
      applications: string[];
      atOnce: number;
      maxUpdate?: number | string;
      approval: string[];
    },
  ): Promise<void>;
  /** The last step ended, or the rollout stopped. */
  rolloutEnded(target: ReportTarget, summary: RolloutSummary): Promise<void>;
  /**
   * The message that becomes an Application's approval request, in the rollout's thread (the approval flow turns
   * it into the request with Approve/Reject); undefined when it could not be posted.
   */
  approvalPlaceholder(
    target: ReportTarget,
    application: string,
    step: number,
  ): Promise<MessageRef | undefined>;
}

/**
 * The approval flow for a rollout's Application whose environment requires approval (src/environments' gateRequest,
 * adapted by the composition root): the request policy is checked for the rollout's initiator, then an approval
 * request is posted on `header`; once approved, the approval flow queues `request` (with its rollout) itself.
 */
export interface RolloutApprovals {
  request(
    request: SyncJob,
    header: MessageRef | undefined,
  ): Promise<{ kind: 'pending' } | { kind: 'proceed' } | { kind: 'refused'; reason: string }>;
  /**
   * The rollout stopped: close its approval requests still pending (invalidated, `note` shown on each) so that
   * none is approved and synced afterwards. Resolves with how many were closed; idempotent.
   */
  release?(chain: RolloutChain, note: string): Promise<number>;
}
