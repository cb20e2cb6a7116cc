/**
 * The periodic drift check: every interval, each Application with `syncPolicy.automated` is compared with the
 * cluster, and one action per drift episode is handed to `onAction` (notify with a Sync button, self-heal sync, or
 * resolved). Comparing needs the cluster, and acting needs Slack and the queue, so both come in as functions; the
 * episode state goes through `store` (in memory by default; Redis for several bot replicas, where the store's
 * atomic transition makes exactly one replica see each episode start). Ticks never overlap: a tick() while one
 * runs joins it. checkApps(names) compares only the named Applications (the change-driven check: the objects they
 * track changed); comparisons of one Application never overlap, whichever asked for them: a comparison waits for
 * the one of the same Application in progress, and a change-driven request for an Application that already has
 * one waiting joins it. Argo CD's equivalent is the application controller's periodic reconciliation
 * (`timeout.reconciliation`, 180 s) with `syncPolicy.automated` (controller/appcontroller.go autoSync).
 */
import type { Application } from '../domain/index.js';
import type { Logger } from '../logger.js';
import type { ResourceDifference } from './compare-application.js';
import { type DriftAction, type DriftState, observeDrift } from './drift-episodes.js';
import { selfHealAllowed } from './self-heal.js';

/** The next state and action for one Application, given its stored state (undefined: never seen). */
type DriftTransition = (previous: DriftState | undefined) => {
  state: DriftState;
  action: DriftAction;
};

/** Where episode state lives between ticks. */
export interface DriftStateStore {
  get(application: string): Promise<DriftState | undefined>;
  /**
   * Apply `transition` to the stored state atomically and store its result; resolves with the action of the
   * transition that was stored. When another process changed the state in between, `transition` runs again on
   * the new state, so two replicas never both start the same episode.
   */
  transition(application: string, transition: DriftTransition): Promise<DriftAction>;
}

/** What one comparison found, for metrics. */
export type DriftCheckResult = 'Synced' | 'OutOfSync' | 'Error' | 'Skipped';

/** What asked for a comparison: a tick (every automated Application) or a change to the Application's objects. */
export type DriftCheckTrigger = 'interval' | 'change';

export interface DriftDetectorDeps {
  applications(): readonly Application[];
  /** The differences between the Application's manifests and the cluster (compareApplication). */
  compare(app: Application): Promise<readonly ResourceDifference[]>;
  /** Whether the Application's environment allows automatic syncs now (default: always). */
  autoSyncAllowed?(app: Application): boolean;
  /**
   * True when the Application is not to be compared now (result `Skipped`, no action, the episode state is left
   * as it is): while a sync of it is queued, running or waiting for approval (its state is in flux; Argo CD does
   * not auto-sync an Application with an operation in progress), and while it has never completed a sync (Argo CD
   * shows such an Application OutOfSync, but a notice for an app nobody has synced yet is noise).
   */
  skipComparison?(app: Application): Promise<boolean>;
  onAction(app: Application, action: Exclude<DriftAction, { action: 'none' }>): Promise<void>;
  /** Called once per comparison with what it found and what asked for it. */
  onChecked?(app: Application, result: DriftCheckResult, trigger: DriftCheckTrigger): void;
  store?: DriftStateStore;
  /**
   * Interval ticks only: take the lease for this interval (true) or leave it to another replica (false), so one
   * of several bot replicas compares per interval. tick() called directly always compares.
   */
  lease?(ttlMs: number): Promise<boolean>;
  /**
   * Change-driven checks only: whether this replica compares the Application for the change it saw (true) or
   * leaves it to the replica that holds the Application's change claim (false). Default: always compares. A
   * rejection (Redis down) compares anyway: a duplicate comparison is harmless (episodes are deduplicated), a
   * missed one is not.
   */
  claim?(application: string): Promise<boolean>;
  now?: () => Date;
  logger?: Pick<Logger, 'warn'>;
}

export interface DriftDetector {
  /** Check every automated Application once; resolves when done (joins a tick already running). */
  tick(): Promise<void>;
  /**
   * Compare the named automated Applications once each (others, and names no Application has, are ignored);
   * resolves when done. An Application compared right now (by a tick or an earlier change) is compared again
   * after that comparison, which may have read the cluster before the change.
   */
  checkApps(names: Iterable<string>): Promise<void>;
  /** What each interval does: tick() if the lease (when configured) is ours for `intervalMs`; resolves with whether it ticked. */
  tickIfLeader(intervalMs: number): Promise<boolean>;
  /** Tick every `intervalMs` until stop(). */
  start(intervalMs: number): void;
  /** Stop ticking; resolves once a tick in progress has finished. */
  stop(): Promise<void>;
}

/** An in-process DriftStateStore. */
function memoryDriftStateStore(): DriftStateStore {
  const states = new Map<string, DriftState>();
  return {
    get: async (name) => states.get(name),
    async transition(name, transition) {
      const { state, action } = transition(states.get(name));
      states.set(name, state);
      return action;
    },
  };
}

const NONE: DriftAction = { action: 'none' };

export function createDriftDetector(deps: DriftDetectorDeps): DriftDetector {
  const store = deps.store ?? memoryDriftStateStore();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const checkOne = async (app: Application): Promise<DriftCheckResult> => {
    if (await deps.skipComparison?.(app)) return 'Skipped';
    const differences = await deps.compare(app);
    const selfHeal = selfHealAllowed(app, () => deps.autoSyncAllowed?.(app) ?? true);
    const now = deps.now?.() ?? new Date();
    let before: DriftState | undefined;
    const action = await store.transition(app.name, (previous) => {
      before = previous;
      return observeDrift(previous, differences, { selfHeal }, now);
    });
    if (action.action !== 'none') {
      try {
        await deps.onAction(app, action);
      } catch (error) {
        // Not told (Slack down) or not queued (Redis down): forget the episode's start so the next tick acts again.
        if (action.action !== 'resolved')
          await store.transition(app.name, () => ({
            state: before ?? { selfHealAttempts: 0 },
            action: NONE,
          }));
        throw error;
      }
    }
    return differences.length === 0 ? 'Synced' : 'OutOfSync';
  };

  const checkAndReport = async (app: Application, trigger: DriftCheckTrigger) => {
    if (trigger === 'change' && deps.claim) {
      const mine = await deps.claim(app.name).catch((error: unknown) => {
        deps.logger?.warn({ application: app.name, err: error }, 'drift change claim failed; comparing');
        return true;
      });
      if (!mine) return;
    }
    let result: DriftCheckResult;
    try {
      result = await checkOne(app);
    } catch (error) {
      result = 'Error';
      deps.logger?.warn({ application: app.name, err: error }, 'drift check failed');
    }
    deps.onChecked?.(app, result, trigger);
  };

  /** The last comparison of each Application queued or running: the next one of that Application waits for it. */
  const lanes = new Map<string, Promise<void>>();
  /** A change-driven comparison queued behind another and not started yet: later changes join it. */
  const queuedChange = new Map<string, Promise<void>>();
  const inLane = (name: string, compare: () => Promise<void>): Promise<void> => {
    const next = (lanes.get(name) ?? Promise.resolve()).catch(() => undefined).then(compare);
    lanes.set(name, next);
    next
      .finally(() => {
        if (lanes.get(name) === next) lanes.delete(name);
      })
      .catch(() => undefined);
    return next;
  };
  const checkOnChange = (app: Application): Promise<void> => {
    const queued = queuedChange.get(app.name);
    if (queued) return queued;
    const next = inLane(app.name, () => {
      if (queuedChange.get(app.name) === next) queuedChange.delete(app.name);
      return checkAndReport(app, 'change');
    });
    queuedChange.set(app.name, next);
    return next;
  };

  const tickOnce = async () => {
    for (const app of deps.applications()) {
      if (!app.syncPolicy?.automated) continue;
      await inLane(app.name, () => checkAndReport(app, 'interval'));
    }
  };

  const checkApps = async (names: Iterable<string>) => {
    const wanted = new Set(names);
    if (wanted.size === 0) return;
    const apps = deps.applications().filter((app) => wanted.has(app.name) && app.syncPolicy?.automated);
    await Promise.all(apps.map(checkOnChange));
  };

  const tick = () => {
    running ??= tickOnce().finally(() => {
      running = undefined;
    });
    return running;
  };

  // The lease lasts most of an interval, so it is free again when the next interval's first timer fires.
  const tickIfLeader = async (intervalMs: number) => {
    if (running) return false;
    const leader = deps.lease ? await deps.lease(Math.max(1, Math.floor(intervalMs * 0.8))) : true;
    if (leader) await tick();
    return leader;
  };

  return {
    tick,
    checkApps,
    tickIfLeader,
    start(intervalMs) {
      timer = setInterval(() => {
        tickIfLeader(intervalMs).catch((error: unknown) =>
          deps.logger?.warn({ err: error }, 'drift tick failed'),
        );
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
      await Promise.allSettled(lanes.values());
    },
  };
}
