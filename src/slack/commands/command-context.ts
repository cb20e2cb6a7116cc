/**
 * What every `/sync` subcommand receives: the parsed command, Bolt's ack/respond, the Web API client, the
 * ports, and the words after the subcommand.
 */
import type {
  AckFn,
  BlockAction,
  ButtonAction,
  RespondArguments,
  RespondFn,
  SlashCommand,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { DriftNoticeClaims, DriftNoticeRefs } from '../../drift/index.js';
import type { ApprovalFlow, AuditLog } from '../../environments/index.js';
import type { Logger } from '../../logger.js';
import type { PromotionStore, StageObservation } from '../../promotion/index.js';
import type { ClickClaims, DurableWrites } from '../../queue/index.js';
import type { ResourceViews } from '../../resource-actions/index.js';
import type { RevisionNoticeRefs } from '../../revisions/index.js';
import type { Settings } from '../../settings/index.js';
import type { SlackMessage } from '../messages/block.js';
import type {
  ApplicationCatalog,
  ApprovalGate,
  CommandJournal,
  DeletionPlanner,
  RolloutStarter,
  SyncQueueClient,
} from '../ports.js';
import type { HeaderDelivery } from '../reporters/header-delivery.js';
import type { RecentRequests } from './recent-requests.js';

export interface SlackAppDeps {
  queue: SyncQueueClient;
  catalog: ApplicationCatalog;
  logger?: Logger;
  /**
   * The environment's policy and approvals (createApprovalGate). Absent only where no approval flow is wired (no
   * environments configured): startSync then gives requestSync the named gate NO_APPROVAL_FLOW (queued as asked).
   */
  approvals?: ApprovalGate;
  /** The approval flow behind the Approve/Reject buttons and `/sync audit` (src/environments/approvals; optional). */
  approvalFlow?: Pick<
    ApprovalFlow,
    'decide' | 'audit' | 'authorizePruneConfirmation' | 'authorize' | 'recordCancel'
  > &
    Partial<
      Pick<
        ApprovalFlow,
        | 'liveDiff'
        | 'requestDiff'
        | 'pendingApprovals'
        | 'withdraw'
        | 'gateResourceAction'
        | 'resourceActionNeedsApproval'
      >
    >;
  /** `/sync <appset>`: an ApplicationSet's rollout; without it only Applications are synced. */
  rollouts?: RolloutStarter;
  /** Plans `/sync delete` (reads the cluster); without it `/sync delete` says deleting is not available. */
  deletions?: DeletionPlanner;
  /**
   * Who clicked each drift notice's Sync button first, shared by the bot replicas (redisDriftNoticeClaims);
   * without it, claims are kept in this process only.
   */
  driftClaims?: DriftNoticeClaims;
  /**
   * The open drift notice of each Application (redisDriftNoticeRefs, the same keys drift detection writes): a Sync
   * click must name the one that is open. Without it every drift Sync click is refused as stale.
   */
  driftNotices?: Pick<DriftNoticeRefs, 'get'>;
  /**
   * Who started the rollback of each failed sync first (Roll back buttons of its summary and notices), shared by the
   * bot replicas (redisClickClaims, `<prefix>:rollback:click:<key>`); without it, claims are kept in this process.
   */
  rollbackClaims?: ClickClaims;
  /**
   * The newest "main moved" message of each Application (src/revisions redisRevisionNoticeRefs): its Sync button
   * must name it. Without it every such click is refused as stale.
   */
  revisionNotices?: Pick<RevisionNoticeRefs, 'get'>;
  /** Who clicked each "main moved" message's Sync first, shared by the replicas; default this process only. */
  revisionClaims?: ClickClaims;
  /**
   * Where `/sync <app>` writes a request before acknowledging it (the queue's CommandJournal on Redis); a bot
   * restarting finishes what a dead one acknowledged. Without it the command is acked first (tests' in-memory queue).
   */
  journal?: CommandJournal;
  /**
   * How sync headers are posted: a client that rejects rate-limited calls and the channel pacer shared through
   * Redis (headers before thread lines). Without it: the listener's client, paced in this process.
   */
  headerDelivery?: HeaderDelivery;
  /** Lease of a journal entry in ms (default 30 000): how long a dead bot's command waits before recovery. */
  commandLeaseMs?: number;
  /**
   * The bot's Redis writers (queue producer, approvals, drift claims): a button's effect is shown only once they
   * are on the replicas (durable-click.ts; Sentinel). Default: nothing to wait for.
   */
  durable?: DurableWrites;
  /** The Applications' live resources and resource actions (src/resource-actions); without it they are unavailable. */
  resourceViews?: ResourceViews;
  /** Where resource actions are audited (the approval flow's audit log). */
  actionAudit?: Pick<AuditLog, 'append'>;
  /**
   * Promotion pipelines (wavesync.yaml `promotion`, the stage records in Redis): `/sync promote`, `/sync pipeline`
   * and the pin in `/sync status`. Without it those commands say no pipeline is configured.
   */
  promotion?: PromotionDeps;
}

/** What the promotion commands read. */
export interface PromotionDeps {
  settings: Pick<Settings, 'promotion'>;
  store: PromotionStore;
  /** Whether the Application is in an environment (break-glass of an unverified revision is possible there only). */
  inEnvironment(application: string): boolean;
  /** The stage's live health and sync against `revision` (`/sync pipeline`'s live column); optional. */
  observe?(application: string, revision: string): Promise<StageObservation>;
}

export interface CommandContext {
  command: SlashCommand;
  /** Words after the subcommand (for `/sync <app> …`: after the app name). */
  args: string[];
  ack: AckFn<string | RespondArguments>;
  respond: RespondFn;
  client: WebClient;
  deps: SlackAppDeps;
  /** X-Slack-Retry-Num of this delivery, when Slack is re-sending it. */
  retryNum: number | undefined;
  recent: RecentRequests;
}

/** An ephemeral reply body for ack()/respond(). */
export function ephemeral(message: SlackMessage): RespondArguments {
  return { response_type: 'ephemeral', text: message.text, blocks: message.blocks };
}

/** The user who typed the command, as the queue records them. */
export function initiatorOf(command: SlashCommand): { userId: string; userName: string } {
  return { userId: command.user_id, userName: command.user_name };
}

/** What a button listener of the `/sync` app receives (Bolt's payload, the ports, recent requests). */
export interface ActionArgs {
  body: BlockAction;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
  deps: SlackAppDeps;
  recent: RecentRequests;
}
