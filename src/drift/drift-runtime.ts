/**
 * runDriftDetection — the drift runtime of the bot process: every `defaults.driftDetection.intervalSeconds`
 * (default 180 s, Argo CD's reconciliation timeout) each Application with `syncPolicy.automated` is rendered and
 * compared with its tracked live objects, skipping Applications with a sync queued, running or waiting for
 * approval, and Applications never synced (no history entry in the queue). Each action of a drift episode is
 * acted on here: `notify` and `resolved` go to the `notices` port (the Slack drift notices); `sync` — selfHeal,
 * decided by the detector — is requested by this folder (./self-heal-sync.ts: the `selfHeal.announce` port shows
 * it, then src/requests queues it with origin `self-heal`). The episode state goes through `store` with an atomic
 * transition, so several bot replicas act once per episode, a `lease` lets one replica compare per interval, and a
 * per-Application `claim` lets one replica compare an Application after a change to its objects (checkApps).
 *
 * It codes against ports only (this folder's DriftStateStore, DriftNoticePort, SelfHealAnnouncer, DriftMetrics;
 * the engine's Cluster; the queue's and the approval store's read methods; the request path's producer port):
 * src/main/drift-wiring.ts decides which adapters (Redis, Slack, Kubernetes, Prometheus) implement them.
 */
import type { Application, KubeObject } from '../domain/index.js';
import {
  type Cluster,
  ignoreDifferencesOf,
  listTrackedLiveObjects,
  type SourcedObject,
} from '../engine/index.js';
import type { ApprovalStore } from '../environments/index.js';
import type { Logger } from '../logger.js';
import type { SyncQueueClient } from '../queue/index.js';
import type { Settings } from '../settings/index.js';
import type { DriftAutomationPolicy } from './automation-policy.js';
import { compareApplicationSliced } from './compare-application.js';
import {
  createDriftDetector,
  type DriftCheckResult,
  type DriftCheckTrigger,
  type DriftStateStore,
} from './drift-detector.js';
import type { DriftAction } from './drift-episodes.js';
import { requestSelfHeal, type SelfHealSyncDeps } from './self-heal-sync.js';

/**
 * A drift notice in chat: `notify` posts it (with a Sync button), `resolved` turns it into "back in sync". Rejects
 * when it could not be done (Slack down): the detector forgets the episode's start and acts again next tick.
 */
export type DriftNoticePort = (
  app: Application,
  action: Extract<DriftAction, { action: 'notify' | 'resolved' }>,
) => Promise<void>;

/** What each comparison found, counted per Application (the Prometheus metrics implement it). */
export interface DriftMetrics {
  driftChecked(application: string, result: DriftCheckResult, trigger: DriftCheckTrigger): void;
}

export interface DriftDetectionDeps {
  /** `defaults.driftDetection` (interval, enabled). */
  /** `defaults.driftDetection`; `resourceTracking` (default annotation tracking) finds each Application's objects. */
  settings: Pick<Settings, 'defaults'> & Partial<Pick<Settings, 'resourceTracking'>>;
  /** The Applications to check (the registry's list, read each tick). */
  applications(): readonly Application[];
  /**
   * The Application's manifests at its targetRevision (ApplicationRenderer.renderApplication), or at `revision`
   * when given (a pinned stage of a promotion pipeline).
   */
  render(app: Application, revision?: string): Promise<{ targets: readonly SourcedObject[] }>;
  /**
   * The revision a promotion pinned the Application at (src/promotion pinnedRevision), or undefined: drift is then
   * compared with, and self-healed to, that revision instead of the branch head. Optional (no pins without it).
   */
  pinnedRevision?(app: Application): Promise<string | undefined>;
  /** The cluster of the Application's destination (read only: list). */
  clusterFor(app: Application): Pick<Cluster, 'listKinds' | 'list'>;
  /** Whether a sync of an Application is queued or running, and whether it was ever synced. */
  queue: Pick<SyncQueueClient, 'applicationStatus' | 'history'>;
  /** Whether a sync of an Application waits for approval. */
  approvals: Pick<ApprovalStore, 'hasPending'>;
  /** selfHeal allowed now, and why not (createDriftAutomationPolicy); told what each comparison saw. */
  policy: DriftAutomationPolicy;
  notices: DriftNoticePort;
  /** A self-heal sync: its announcer, the producer and its audit log (logged with `logger`). */
  selfHeal: Omit<SelfHealSyncDeps, 'logger'>;
  /**
   * Looks at the live objects each comparison read (the `on-health-degraded` notices, noticeDegradedHealth);
   * a rejection is logged and does not fail the check. Optional.
   */
  liveObjectsRead?(app: Application, live: readonly KubeObject[]): Promise<void>;
  store: DriftStateStore;
  /** Interval ticks only: take the interval's lease for `ttlMs` (true) or leave it to another replica. */
  lease?(ttlMs: number): Promise<boolean>;
  /** Change-driven checks only: whether this replica compares the Application for this change burst. */
  claim?(application: string): Promise<boolean>;
  metrics?: DriftMetrics;
  now?: () => Date;
  logger: Pick<Logger, 'info' | 'warn'>;
}

export interface RunningDriftDetection {
  /** Compare every automated Application now; joins a tick in progress. */
  tick(): Promise<void>;
  /** Compare only the named automated Applications (the change-driven check); see DriftDetector.checkApps. */
  checkApps(names: Iterable<string>): Promise<void>;
  /** What each interval does: tick() only if this replica takes the interval's lease. */
  tickIfLeader(): Promise<boolean>;
  /** Stop the interval and wait for a tick in progress. */
  close(): Promise<void>;
}

/** Start the interval (unless `defaults.driftDetection.enabled: false`: then tick() still works, for tests). */
export function runDriftDetection(deps: DriftDetectionDeps): RunningDriftDetection {
  const { logger, policy } = deps;
  const compare = async (app: Application) => {
    const pinned = await deps.pinnedRevision?.(app);
    const rendered = await (pinned === undefined ? deps.render(app) : deps.render(app, pinned));
    const live = await listTrackedLiveObjects(deps.clusterFor(app), app.name, deps.settings.resourceTracking);
    await deps
      .liveObjectsRead?.(app, live)
      .catch((err: unknown) => logger.warn({ err, application: app.name }, 'on-health-degraded not checked'));
    policy.observe(app, { rendered: rendered.targets.length, live: live.length });
    const createNamespace = app.syncPolicy?.syncOptions?.includes('CreateNamespace=true') ?? false;
    const namespace = app.destination.namespace ?? 'default';
    const ignoreDifferences = ignoreDifferencesOf(app).rules;
    const comparison = await compareApplicationSliced(rendered.targets, live, namespace, {
      createNamespace,
      ignoreDifferences,
    });
    return comparison.differences;
  };
  const detector = createDriftDetector({
    applications: deps.applications,
    compare,
    autoSyncAllowed: (app) => policy.allowed(app),
    skipComparison: (app) => awaitingSync(deps.queue, deps.approvals, app.name),
    onAction: async (app, action) =>
      action.action === 'sync'
        ? requestSelfHeal(
            { ...deps.selfHeal, logger },
            app,
            action.differences,
            await deps.pinnedRevision?.(app),
          )
        : deps.notices(app, action),
    onChecked: (app, result, trigger) => deps.metrics?.driftChecked(app.name, result, trigger),
    store: deps.store,
    ...(deps.lease ? { lease: deps.lease } : {}),
    ...(deps.claim ? { claim: deps.claim } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    logger,
  });
  const { intervalSeconds, enabled } = deps.settings.defaults.driftDetection;
  if (enabled) detector.start(intervalSeconds * 1000);
  logger.info({ intervalSeconds, enabled }, 'drift detection ready');
  return {
    tick: () => detector.tick(),
    checkApps: (names) => detector.checkApps(names),
    tickIfLeader: () => detector.tickIfLeader(intervalSeconds * 1000),
    close: () => detector.stop(),
  };
}

/**
 * Whether drift detection leaves `application` alone this interval: it has never completed a sync (no entry in
 * the queue's history: a first sync is what brings it in sync, not a notice), or a sync of it is queued, running
 * or waiting for approval (the state is in flux). Argo CD compares such Applications too (the UI shows them
 * OutOfSync) and does not auto-sync one with an operation in progress; wavesync posts nothing for them.
 */
async function awaitingSync(
  queue: Pick<SyncQueueClient, 'applicationStatus' | 'history'>,
  approvals: Pick<ApprovalStore, 'hasPending'>,
  application: string,
): Promise<boolean> {
  const [line, history, pending] = await Promise.all([
    queue.applicationStatus(application),
    queue.history(application, 1),
    approvals.hasPending(application),
  ]);
  return line.length > 0 || history.length === 0 || pending;
}
