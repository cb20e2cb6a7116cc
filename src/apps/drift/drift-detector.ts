/**
 * The periodic drift check: every interval, each Application with `syncPolicy.automated` is compared with the
 * cluster, and one action per drift episode is handed to `onAction` (notify with a Sync button, self-heal sync, or
 * resolved). Comparing needs the cluster, and acting needs Slack and the queue, so both come in as functions; the
 * episode state goes through `store` (in memory by default; Redis for several workers). Ticks never overlap.
 */
import type { Application } from '../../domain/application.js';
import type { Logger } from '../../logger.js';
import type { ResourceDifference } from './compare-application.js';
import { type DriftAction, type DriftState, observeDrift } from './drift-episodes.js';

export interface DriftStateStore {
  get(application: string): Promise<DriftState | undefined>;
  set(application: string, state: DriftState): Promise<void>;
}

export interface DriftDetectorDeps {
  applications(): readonly Application[];
  /** The differences between the Application's manifests and the cluster (compareApplication). */
  compare(app: Application): Promise<readonly ResourceDifference[]>;
  /** Whether the Application's environment allows automatic syncs (default: always). */
  autoSyncAllowed?(app: Application): boolean;
  onAction(app: Application, action: Exclude<DriftAction, { action: 'none' }>): Promise<void>;
  store?: DriftStateStore;
  now?: () => Date;
  logger?: Pick<Logger, 'warn'>;
}

export interface DriftDetector {
  /** Check every automated Application once. */
  tick(): Promise<void>;
  /** Tick every `intervalMs` until stop(). */
  start(intervalMs: number): void;
  stop(): void;
}

/** An in-process DriftStateStore. */
export function memoryDriftStateStore(): DriftStateStore {
  const states = new Map<string, DriftState>();
  return { get: async (name) => states.get(name), set: async (name, state) => void states.set(name, state) };
}

export function createDriftDetector(deps: DriftDetectorDeps): DriftDetector {
  const store = deps.store ?? memoryDriftStateStore();
  let timer: NodeJS.Timeout | undefined;
  let busy = false;

  const checkOne = async (app: Application) => {
    const differences = await deps.compare(app);
    const selfHeal = Boolean(app.syncPolicy?.automated?.selfHeal) && (deps.autoSyncAllowed?.(app) ?? true);
    const { state, action } = observeDrift(
      await store.get(app.name),
      differences,
      { selfHeal },
      deps.now?.() ?? new Date(),
    );
    await store.set(app.name, state);
    if (action.action !== 'none') await deps.onAction(app, action);
  };
  const tick = async () => {
    for (const app of deps.applications()) {
      if (!app.syncPolicy?.automated) continue;
      try {
        await checkOne(app);
      } catch (error) {
        deps.logger?.warn({ application: app.name, err: error }, 'drift check failed');
      }
    }
  };
  return {
    tick,
    start(intervalMs) {
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        void tick().finally(() => {
          busy = false;
        });
      }, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
