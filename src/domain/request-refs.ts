/**
 * The vocabulary of a request, shared by everyone who asks, gates, queues or reports one: who asked (`Initiator`),
 * what a rollback returns to (`RollbackRef`), what a promotion moves (`PromotionRef`), what a deletion asks for
 * (`DeletionRequest`, `DeletionCascade`) and what made an automated sync start (`RevisionTrigger`). Plain data: a
 * request travels as BullMQ job data, so every shape here stays JSON-serialisable.
 */

/** Who asked (a Slack user, or the bot itself for automated syncs). */
export interface Initiator {
  userId: string;
  userName: string;
}

/** A rollback's target: history entry `id` and its exact revision (git SHA). */
export interface RollbackRef {
  id: number;
  revision: string;
  /**
   * The promotion this rollback undoes, when the operation it rolls back from was one (history entry `id`, if
   * recorded): said on its approval message and header.
   */
  undoes?: { id?: number; pipeline: string; from: string; revision: string };
}

/** What a promotion moves: from which stage of which pipeline, the exact revision, and how it was verified. */
export interface PromotionRef {
  pipeline: string;
  /** The stage (Application) the revision was verified in. */
  from: string;
  /** The exact revision promoted: each source's git SHA or chart version, joined by `;`. */
  revision: string;
  /** How it was verified, for people: `Healthy in guestbook-staging for 2 h, PostSync Job/smoke-test passed`. */
  verified?: string;
  /** A break-glass promotion of a revision that was not verified: why it was never verified. */
  unverified?: string;
}

/**
 * How a deletion treats the Application's resources, as `argocd app delete --cascade --propagation-policy` sets it:
 * `foreground` / `background` (cascade with that propagation policy) or `orphan` (`--cascade=false`: only the
 * Application goes). Undefined = what the Application's own finalizers say (deleting it with kubectl).
 */
export const DELETION_CASCADES = ['foreground', 'background', 'orphan'] as const;
export type DeletionCascade = (typeof DELETION_CASCADES)[number];

/** What `/sync delete` asks for (src/deletion). */
export interface DeletionRequest {
  /** `--cascade`; absent = follow the Application's finalizers. */
  cascade?: DeletionCascade;
  /** `group/Kind/namespace/name` of the `Delete=confirm` objects the confirmation or approval covered. */
  confirmed: string[];
  /**
   * `planHash` (src/deletion/application-deletion.ts) of the plan the requester confirmed (and approvers approved): the
   * worker re-plans when the job starts and deletes nothing when the plan's hash differs.
   */
  planHash: string;
}

/** The kinds of trigger that make the revision watcher look: its interval, or a git host's push webhook. */
type RevisionTriggerKind = 'poll' | 'push';

/** What made the watcher look: the interval, or a git host's webhook (`provider`: GitHub, GitLab, …). */
export interface RevisionTrigger {
  kind: RevisionTriggerKind;
  provider?: string;
}
