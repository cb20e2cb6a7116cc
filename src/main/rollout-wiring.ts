/**
 * createRolloutWiring — an ApplicationSet's rollout (`/sync <appset>`) on Redis, the sync queue and Slack: the driver
 * (src/app-of-apps/rollout-driver.ts) with the App of Apps chain store, the Slack announcer, the approval flow's
 * gateRequest for Applications whose environment requires approval (and its releaseRollout, when a rollout stops),
 * and the bot's port (the steps of an ApplicationSet from the registry, and the driver's start). The bot starts
 * rollouts and stops them when an approval closes without being given (`approvalClosed`); the worker continues them
 * (its `lifecycle` hooks), all over the same keys.
 */
import type { WebClient } from '@slack/web-api';
import {
  createRolloutDriver,
  type RolloutApprovals,
  type RolloutDriver,
  redisAppOfAppsChainStore,
} from '../app-of-apps/index.js';
import type { ApplicationRegistry } from '../applications/index.js';
import type { ApprovalRecord, RequestApprovals } from '../environments/index.js';
import type { Logger } from '../logger.js';
import type { RedisClient, SyncQueueClient } from '../queue/index.js';
import type { RolloutStarter } from '../slack/ports.js';
import { createSlackRolloutAnnouncer } from '../slack/reporters/rollout-announcer.js';
import type { ChannelPacer } from '../thread/index.js';

export interface RolloutWiring {
  driver: RolloutDriver;
  /** The bot's `/sync <appset>` port. */
  starter: RolloutStarter;
  /**
   * The approval flow's listener (ApprovalWiring.onRequestClosed): a request of a rollout's Application that closed
   * without approval stops that rollout. Any other request is none of its business.
   */
  approvalClosed(record: ApprovalRecord): Promise<void>;
}

export function createRolloutWiring(deps: {
  queue: Pick<SyncQueueClient, 'enqueueSync'>;
  redis: RedisClient;
  prefix: string;
  registry: Pick<ApplicationRegistry, 'find' | 'applicationSet'>;
  /** The approval flow (createApprovalWiring); absent without Slack. */
  approvals?: Pick<RequestApprovals, 'gateRequest' | 'releaseRollout'>;
  web?: WebClient;
  pacer: ChannelPacer;
  logger: Logger;
}): RolloutWiring {
  const logger = deps.logger.child({ component: 'rollout' });
  const driver = createRolloutDriver({
    queue: deps.queue,
    store: redisAppOfAppsChainStore(deps.redis, deps.prefix),
    registered: (name) => deps.registry.find(name),
    ...(deps.approvals ? { approvals: approvalsPort(deps.approvals) } : {}),
    ...(deps.web
      ? { announcer: createSlackRolloutAnnouncer({ client: deps.web, pacer: deps.pacer, logger }) }
      : {}),
    logger,
  });
  return {
    driver,
    starter: {
      plan(name) {
        const set = deps.registry.applicationSet(name);
        if (!set) return undefined;
        if (!set.rollout) {
          // No RollingSync (Argo CD's AllAtOnce): one step, every Application at once.
          return {
            steps: [{ applications: set.applications, atOnce: set.applications.length }],
            unassigned: [],
          };
        }
        return {
          steps: set.rollout.steps.map((s) => ({
            applications: s.applications,
            atOnce: s.atOnce,
            ...(s.maxUpdate === undefined ? {} : { maxUpdate: s.maxUpdate }),
          })),
          unassigned: set.rollout.unassigned,
        };
      },
      start: (chain, initiator) => driver.start(chain, initiator),
    },
    async approvalClosed(record) {
      const { request, status } = record;
      const chain = request.rollout;
      if (!chain || status === 'pending' || status === 'approved') return;
      await driver.approvalClosed(
        chain,
        request.application,
        {
          status,
          ...(record.decidedBy ? { decidedBy: record.decidedBy } : {}),
          requesterId: request.requester.userId,
          createdAt: request.createdAt,
          expiresAt: request.expiresAt,
          ...(record.note ? { note: record.note } : {}),
        },
        request.requester,
      );
    },
  };
}

/** gateRequest for a rollout's Application: the initiator's policy, then the approval request on `header`. */
function approvalsPort(
  approvals: Pick<RequestApprovals, 'gateRequest' | 'releaseRollout'>,
): RolloutApprovals {
  return {
    release: (chain, note) => approvals.releaseRollout(chain.rolloutId, note),
    async request(request, header) {
      const channel = header?.channel ?? request.rollout?.target?.channel;
      if (!channel)
        return { kind: 'refused', reason: 'the rollout has no Slack thread to ask for approval in' };
      const result = await approvals.gateRequest({
        application: request.application,
        operation: request.operation,
        initiator: request.initiator,
        channel,
        requestKey: request.requestKey,
        ...(header ? { header } : {}),
        ...(request.rollout ? { rollout: request.rollout } : {}),
        trigger: `rollout of ApplicationSet ${request.rollout?.applicationSet ?? ''}`,
      });
      if (result.kind === 'proceed') return { kind: 'proceed' };
      if (result.kind === 'refused') return { kind: 'refused', reason: result.reason };
      return { kind: 'pending' };
    },
  };
}
