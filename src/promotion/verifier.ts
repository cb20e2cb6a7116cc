/**
 * The verifier (bot process, roles `bot` and `serve`; wired in src/main/promotion-wiring.ts): every
 * `promotion.checkIntervalSeconds` it looks at each stage whose current sync is `verifying` — are its live objects
 * those of that exact revision, and Healthy? — and records what it saw (./verification.ts stageObserved): the clock
 * restarts on a bad look, and a stage Healthy long enough is verified. One replica looks per interval (`lease`).
 * Looking needs the cluster and the renderer, which come in as the `observe` port.
 */
import type { Logger } from '../logger.js';
import type { Settings } from '../settings/index.js';
import { pipelinesOf } from './pipelines.js';
import type { PromotionStore } from './stage-records.js';
import { type StageObservation, stageObserved } from './verification.js';

export interface VerifierDeps {
  settings: Pick<Settings, 'promotion'>;
  store: PromotionStore;
  /** The stage's live state against its manifests at `revision`: health and how many resources differ. */
  observe(application: string, revision: string): Promise<StageObservation>;
  /** Take the interval's lease for `ttlMs` (true) or leave it to another replica. Default: always. */
  lease?(ttlMs: number): Promise<boolean>;
  now?: () => number;
  logger: Pick<Logger, 'info' | 'warn'>;
}

export interface RunningVerifier {
  /** Look at every verifying stage now (joins a tick in progress). */
  tick(): Promise<void>;
  close(): Promise<void>;
}

/** Start looking every `promotion.checkIntervalSeconds` (nothing runs while no pipeline is configured). */
export function startVerifier(deps: VerifierDeps): RunningVerifier {
  const now = deps.now ?? Date.now;
  let running: Promise<void> | undefined;
  const checkStage = async (application: string, verify: Parameters<typeof stageObserved>[2]) => {
    const current = await deps.store.stage(application);
    if (current?.status !== 'verifying') return;
    const seen = await deps.observe(application, current.revision);
    const next = await deps.store.updateStage(application, (stored) =>
      stored?.jobId === current.jobId ? stageObserved(stored, seen, verify, now()) : stored,
    );
    if (next?.status === 'verified' && next.jobId === current.jobId) {
      deps.logger.info({ application, revision: next.revision }, 'stage sync verified');
    }
  };
  const tickOnce = async () => {
    for (const pipeline of pipelinesOf(deps.settings)) {
      for (const stage of pipeline.stages) {
        await checkStage(stage, pipeline.verify).catch((err: unknown) =>
          deps.logger.warn({ err, application: stage }, 'promotion verification check failed'),
        );
      }
    }
  };
  const tick = () => {
    running ??= tickOnce().finally(() => {
      running = undefined;
    });
    return running;
  };
  const intervalMs = deps.settings.promotion.checkIntervalSeconds * 1000;
  const timer =
    pipelinesOf(deps.settings).length === 0
      ? undefined
      : setInterval(() => {
          void (async () => {
            if (running) return;
            const leader = deps.lease ? await deps.lease(Math.max(1, Math.floor(intervalMs * 0.8))) : true;
            if (leader) await tick();
          })().catch((err: unknown) => deps.logger.warn({ err }, 'promotion verification tick failed'));
        }, intervalMs);
  timer?.unref();
  return {
    tick,
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
