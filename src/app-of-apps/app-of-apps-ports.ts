/**
 * The ports the App of Apps runtime (app-of-apps-driver.ts) codes against. Adapters implement them: the Slack
 * announcer (src/slack/reporters/app-of-apps-announcer.ts), the Redis chain store (./redis-chain-store.ts); the
 * composition root (src/main/start-worker.ts) chooses which.
 */
import type { ReportTarget } from '../queue/index.js';
import type { AppOfAppsSummary, ChildOutcome } from './app-of-apps.js';

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

/** What is done once per chain: its announcement (`announced`) and its final summary (`summary`). */
export type ChainMilestone = 'announced' | 'summary';

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
