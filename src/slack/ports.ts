/**
 * The ports the Slack app codes against: the sync queue (its types, from src/queue) and the catalog of
 * Applications (structurally the apps registry's `names()`/`describe()`), plus the optional approval gate and the
 * deletion planner (declared by src/deletion, re-exported here).
 * The composition root passes the real implementations; tests pass in-memory doubles.
 */
import type {
  ApplicationDestination,
  ApplicationSource,
  Initiator,
  SyncOperationResource,
} from '../domain/index.js';
import type { PolicyVerdict, RequestAsk } from '../environments/index.js';
import type { RolloutChain, RolloutChainStep } from '../queue/index.js';
import type { RequestGate } from '../requests/index.js';

/** The queue's types, re-exported whole (not re-listed): the queue layer owns them. */
export type * from '../queue/index.js';

/** What the bot shows about one Application. */
export interface ApplicationSummary {
  name: string;
  environment?: string;
  /** Destination: the Application's `spec.destination`, or preformatted text. */
  destination: ApplicationDestination | string;
  /** Source: the Application's `spec.source`, or preformatted text. */
  source: ApplicationSource | string;
  /** `spec.syncPolicy.automated` is set: a rollback is refused, as in Argo CD. */
  automated?: true;
  /** The ApplicationSet that generated the Application, if any. */
  applicationSet?: string;
}

/** The Applications the bot may sync. */
export interface ApplicationCatalog {
  names(): string[];
  describe(name: string): ApplicationSummary | undefined;
  /**
   * Read the Applications again because someone named one that is not known (it may have just been added to git,
   * or applied by an App of Apps parent); bounded so a command is still answered within Slack's 3 s.
   */
  refresh?(): Promise<void>;
  /**
   * The resources of `name`'s rendered manifests at `revision` (default its targetRevision), namespaces filled in
   * with the destination's; for checking `--resource` before queueing. Optional: without it nothing is checked.
   * @throws the renderer's errors (the caller then leaves the check to the sync).
   */
  resourcesOf?(name: string, revision?: string): Promise<readonly SyncOperationResource[]>;
}

/**
 * Production approval, supplied by the approvals module (optional; `createApprovalGate` in ./approval-gate.ts): the
 * request path's gate (src/requests RequestGate), which requestSync calls after the header is posted and before
 * anything is queued. `proceed` → requestSync enqueues now; `pending` → the approval flow took the request over (the
 * header became the approval message; it is queued once approved); `refused` → the request was refused, the header
 * says why, and nothing will be queued.
 */
export interface ApprovalGate extends RequestGate {
  /**
   * The environment's request policy (who may request, channels, freeze windows, `--break-glass`) for this user,
   * checked before anything is shown — no header; a refusal is audited with `audit`. Resolves with the refusal text
   * `/sync` would give, or allowed with the verdict gate() takes (GateContext.verdict) instead of asking again.
   */
  policy?(request: RequestPolicyQuery, options?: { audit?: boolean }): Promise<PolicyCheck>;
  /**
   * True when a request for `application` that the policy allows waits for approval (its environment has
   * `requireApproval`): the ack then says "waiting for approval", not "syncing".
   */
  needsApproval?(application: string): boolean;
}

/** The request policy's answer: allowed (with the verdict to hand to the gate), or the refusal's reason. */
export type PolicyCheck = { allowed: true; verdict?: PolicyVerdict } | { allowed: false; reason: string };

/**
 * What a request-policy check looks at: the Application, the operation (none for `/sync delete`, whose action is
 * `delete`), who asks, where, and `--break-glass` (src/environments' RequestAsk).
 */
export type RequestPolicyQuery = RequestAsk;

/**
 * ApplicationSet rollouts (`/sync <appset>`; src/app-of-apps/rollout-driver.ts behind it). Optional: without it an
 * ApplicationSet's name is not something `/sync` knows.
 */
export interface RolloutStarter {
  /**
   * The steps of ApplicationSet `name` as last generated (`strategy: RollingSync`; otherwise one step of every
   * Application, all at once), or undefined when no ApplicationSet has that name.
   */
  plan(name: string): { steps: RolloutChainStep[]; unassigned: string[] } | undefined;
  /** Begin the rollout whose thread's header is posted. @throws when its first Applications cannot be queued. */
  start(chain: RolloutChain, initiator: Initiator): Promise<void>;
}

/** What `/sync delete` shows before anything is queued: declared by the deletion feature (src/deletion). */
export type { DeletionPlanner } from '../deletion/index.js';
