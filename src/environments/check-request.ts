/**
 * checkRequest — the environment's request policy for one person's request, without side effects: resolve the
 * Application and its environment, then authorizeRequest (channels, requesters, revisions, freeze windows with
 * break-glass). What the request path (src/requests) would refuse, before anything is posted or audited; also the
 * access check of the live diff (the `dry-run` permission).
 */
import type { Application, Initiator, PromotionRef, SyncOperation } from '../domain/index.js';
import type { Settings } from '../settings/index.js';
import { authorizeRequest, type RequestContext, type RequestDecision } from './authorize-request.js';
import { environmentFor, type ResolvedEnvironment } from './environment-resolver.js';
import type { GroupMembership } from './group-membership.js';

/**
 * The permission a request needs: `delete` for `/sync delete`, `rollback` for `/sync rollback`, `dry-run` for
 * `--dry-run`, else `sync`.
 */
type RequestAction = 'sync' | 'dry-run' | 'delete' | 'rollback';

/**
 * What the policy looks at: the Application, the operation (none for a deletion: it syncs nothing), who asks,
 * where, and `--break-glass`.
 */
export type RequestAsk = AskCommon &
  (
    | {
        operation: SyncOperation;
        /** Default `dry-run` / `sync` from the operation. */
        action?: Exclude<RequestAction, 'delete'>;
      }
    | { operation?: never; action: 'delete' }
  );

/** What every ask says: the Application, who asks, where, and how. */
export interface AskCommon {
  application: string;
  initiator: Initiator;
  channel: string;
  /** `--break-glass "reason"`: undefined without the flag. */
  breakGlassReason?: string;
  /** A button on a message the bot posted, not a typed command (authorizeAction's `fromBotMessage`). */
  fromBotMessage?: boolean;
  /**
   * `/sync promote`: the revision verified in the previous stage. Its `allowedRevisions` check is of the
   * Application's targetRevision (the branch the promoted commit came down), not of the pinned SHA.
   */
  promotion?: PromotionRef;
}

export interface RequestPolicyDeps {
  settings: Pick<Settings, 'environments'>;
  /** The Application named `name`, or undefined (the registry's `find`). */
  findApplication(name: string): Application | undefined;
  groups: Pick<GroupMembership, 'isMemberOfAny'>;
  /** Clock in ms. */
  now(): number;
}

export type RequestCheck =
  | { kind: 'unknown' }
  | { kind: 'open'; app: Application }
  | {
      kind: 'decided';
      app: Application;
      env: ResolvedEnvironment;
      decision: RequestDecision;
      verdict?: PolicyVerdict;
    };

/**
 * An allowed request's verdict, for the ask it was made for: a later check of the same ask (the gate after the ack)
 * takes its decision instead of asking the policy again, so the policy is evaluated once per request. `ask` is the
 * policy's whole input but the clock (authorizeRequest's RequestContext without `now`), so any other ask — another
 * user, channel, revision, action or break-glass reason — is decided afresh. A rollback's revision is no input of the
 * policy (authorizeRequest asks no `allowedRevisions` of it), so its ask leaves it out: the verdict of the check
 * before the history is read answers the gate's ask for the entry's revision.
 */
export interface PolicyVerdict {
  readonly ask: string;
  readonly decision: Extract<RequestDecision, { allowed: true }>;
}

/**
 * Symbolic revision of a sync: `--revision`, else the Application's targetRevision, else HEAD. A promotion's is the
 * targetRevision: its pinned SHA is what that branch was in the previous stage.
 */
export function revisionNameOf(
  app: Application,
  operation: SyncOperation | undefined,
  promotion?: PromotionRef,
): string {
  return (promotion ? undefined : operation?.revision) ?? app.source.targetRevision ?? 'HEAD';
}

/**
 * `unknown`: no such Application; `open`: it is in no environment (then anything goes); else the decision — taken
 * from `verdict` when it was made for this very ask, otherwise asked of the policy (an allowed one comes with its
 * verdict).
 */
export async function checkRequest(
  deps: RequestPolicyDeps,
  ask: RequestAsk,
  verdict?: PolicyVerdict,
): Promise<RequestCheck> {
  const app = deps.findApplication(ask.application);
  if (!app) return { kind: 'unknown' };
  const env = environmentFor(deps.settings, app);
  if (!env) return { kind: 'open', app };
  const context: Omit<RequestContext, 'now'> = {
    application: app.name,
    environment: env.name,
    userId: ask.initiator.userId,
    channel: ask.channel,
    revisionName: revisionNameOf(app, ask.operation, ask.promotion),
    breakGlassReason: ask.breakGlassReason,
    action: ask.action ?? (ask.operation.dryRun ? 'dry-run' : 'sync'),
    ...(ask.fromBotMessage ? { fromBotMessage: true } : {}),
  };
  const key = JSON.stringify(
    context.action === 'rollback' ? { ...context, revisionName: undefined } : context,
  );
  if (verdict?.ask === key) return { kind: 'decided', app, env, decision: verdict.decision, verdict };
  const decision = await authorizeRequest(
    env.settings,
    { ...context, now: new Date(deps.now()) },
    deps.groups.isMemberOfAny,
  );
  if (!decision.allowed) return { kind: 'decided', app, env, decision };
  return { kind: 'decided', app, env, decision, verdict: { ask: key, decision } };
}
