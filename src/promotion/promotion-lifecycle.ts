/**
 * The worker's part of promotion (a JobLifecycle `ended` hook, wired next to the retry policy in
 * src/main/start-worker.ts): when a sync of a pipeline stage ends, its outcome becomes the stage's current sync
 * (./verification.ts stageSyncEnded: verifying, verified at once with `healthyForMinutes: 0`, or failed), and
 * the stage's pin follows it — a promotion that Succeeded pins the stage at the promoted revision; any other
 * Succeeded sync a person asked for (`/sync`, a rollback, a deletion) to another revision releases the pin. A self-heal sync, which
 * drift detection runs at the pinned revision, leaves it. Idempotent: the hook may run twice for one job.
 */
import { SELF_HEAL_INITIATOR } from '../drift/index.js';
import type { Logger } from '../logger.js';
import { type JobLifecycle, recordedOperation } from '../queue/index.js';
import type { Settings } from '../settings/index.js';
import { stageOf } from './pipelines.js';
import type { PromotionStore } from './stage-records.js';
import { stageSyncEnded } from './verification.js';

export interface PromotionLifecycleDeps {
  settings: Pick<Settings, 'promotion'>;
  store: PromotionStore;
  now?: () => number;
  logger?: Pick<Logger, 'info'>;
}

export function promotionLifecycle(deps: PromotionLifecycleDeps): JobLifecycle {
  const now = deps.now ?? Date.now;
  return {
    async ended({ jobId, request, state, cancelled }) {
      const application = request.application;
      const stage = stageOf(deps.settings, application);
      if (!stage || request.operation?.dryRun) return;
      const succeeded = !cancelled && state.phase === 'Succeeded';
      if (succeeded && request.promotion) {
        const { pipeline, from } = request.promotion;
        const revision = state.syncResult.revision || request.promotion.revision;
        const pin = { revision, pipeline, from, jobId, pinnedAt: now() };
        if ((await deps.store.pin(application))?.jobId !== jobId) await deps.store.setPin(application, pin);
        deps.logger?.info({ application, revision, from }, 'stage pinned by promotion');
      } else if (succeeded && request.initiator.userId !== SELF_HEAL_INITIATOR.userId) {
        // A sync to exactly the pinned revision (a drift notice's Sync button on a pinned stage) keeps the pin.
        const pin = await deps.store.pin(application);
        if (pin && pin.revision !== (state.syncResult.revision || recordedOperation(request).revision)) {
          await deps.store.clearPin(application);
        }
      }
      if (request.deletion) {
        if (succeeded) await deps.store.updateStage(application, () => undefined);
        return;
      }
      const ended = {
        jobId,
        state,
        cancelled,
        ...(request.promotion ? { promotion: request.promotion } : {}),
      };
      const recorded = await deps.store.updateStage(application, (current) =>
        current?.jobId === jobId ? current : stageSyncEnded(ended, stage.pipeline.verify, now()),
      );
      deps.logger?.info(
        {
          application,
          pipeline: stage.pipeline.name,
          status: recorded?.status,
          revision: recorded?.revision,
        },
        'stage sync recorded',
      );
    },
  };
}
