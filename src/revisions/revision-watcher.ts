/**
 * The revision watcher: Argo CD's "has the branch moved?" half of reconciliation. Every poll (argocd-cm
 * `timeout.reconciliation`, wavesync.yaml `defaults.reconciliation`, jittered) and on every webhook each
 * Application's targetRevision is resolved again — one `git ls-remote` per repository (normalised URL) however many
 * Applications use it, one Helm index read per chart and range — and compared with the revision last seen, kept in
 * Redis (RevisionStore) so a restart or a second bot replica does not announce a revision twice: the store's swap
 * is atomic, so exactly one caller sees each move. A move goes to `onMove` (./act-on-move.ts: an automated sync, an
 * approval request, or a "main moved" message); when that fails or is deferred (a freeze window), the previous
 * revision is put back and the next poll acts again. An automated Application that never completed a sync is
 * synced at the next poll too (Argo CD's first automated sync), once per revision (a claim in the store).
 *
 * Multi-source Applications resolve each source; their revision is the sources' joined by `;`, and a move syncs
 * the Application as configured (no single revision to pin). Local-folder sources have no revision and are skipped.
 */
import {
  type Application,
  type ApplicationSource,
  type RevisionTrigger,
  sourcesOf,
} from '../domain/index.js';
import type { Logger } from '../logger.js';
import { normalizeRepoUrl } from './repo-url.js';
import { branchOf, resolveGitTarget } from './resolve-target.js';

/** One Application whose resolved revision is not the one last seen (or that was never synced). */
export interface RevisionMove {
  app: Application;
  /** The revision seen before; undefined for a first automated sync seen without a previous revision. */
  from?: string;
  /** The revision now (single source: the commit SHA or chart version; several: joined by `;`). */
  to: string;
  /** The revision a sync should be pinned to: the single source's; undefined for several sources. */
  pin?: string;
  /** The single git source's repository and the branch it follows (`main`), for the message. */
  git?: { repoURL: string; branch?: string; path?: string };
  trigger: RevisionTrigger;
  /** An automated Application that never completed a sync: its first automated sync. */
  firstSync: boolean;
}

/** `done`: acted on (or nothing to do); `deferred`: try again at the next poll (the previous revision is kept). */
export type MoveOutcome = 'done' | 'deferred';

/** Last seen revisions, shared by the bot replicas. */
export interface RevisionStore {
  /** Store `revision` as the Application's and resolve with the one stored before (undefined: none). Atomic. */
  swap(application: string, revision: string): Promise<string | undefined>;
  /** Put `previous` back if `revision` is still the one stored (the move was not acted on). */
  restore(application: string, revision: string, previous: string | undefined): Promise<void>;
  /** Take a one-off claim (SET NX with a TTL); true for the first caller. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

export interface RevisionWatcherDeps {
  applications(): readonly Application[];
  /** `git ls-remote` of a repository: ref → SHA. */
  listRefs(repoURL: string): Promise<ReadonlyMap<string, string>>;
  /** The chart version a Helm repository or OCI source's targetRevision names now. */
  chartVersion(source: ApplicationSource): Promise<string>;
  store: RevisionStore;
  /** True when an automated Application has never completed a sync and none is queued or awaiting approval. */
  neverSynced(app: Application): Promise<boolean>;
  onMove(move: RevisionMove): Promise<MoveOutcome>;
  /** Interval polls only: take the interval's lease (one replica polls per interval). */
  lease?(ttlMs: number): Promise<boolean>;
  /** Repositories resolved at once (default 4). */
  concurrency?: number;
  logger?: Pick<Logger, 'info' | 'warn' | 'debug'>;
}

/** What one pass did: remote requests made, Applications resolved, moves acted on. */
export interface PollResult {
  gitRequests: number;
  chartRequests: number;
  applications: number;
  moved: number;
  errors: number;
}

export interface RevisionWatcher {
  /** Resolve every Application now (joins a poll in progress). */
  poll(trigger?: RevisionTrigger): Promise<PollResult>;
  /** Resolve the Applications of one repository now (a webhook), optionally only those `only` keeps. */
  refreshRepository(
    repoURL: string,
    trigger: RevisionTrigger,
    only?: (app: Application) => boolean,
  ): Promise<PollResult>;
  /** Poll every `intervalMs` plus up to `jitterMs` at random, until stop(); 0 does nothing. */
  start(intervalMs: number, jitterMs: number, random?: () => number): void;
  stop(): Promise<void>;
}

/** How long a first automated sync of one revision is claimed: it is requested once in that time. */
const FIRST_SYNC_CLAIM_TTL_MS = 7 * 24 * 3_600_000;

export function createRevisionWatcher(deps: RevisionWatcherDeps): RevisionWatcher {
  let running: Promise<PollResult> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };

  const pass = async (
    trigger: RevisionTrigger,
    only: (app: Application) => boolean = () => true,
  ): Promise<PollResult> => {
    const apps = deps
      .applications()
      .filter((app) => sourcesOf(app).some((s) => s.repoURL !== '') && only(app));
    const result: PollResult = { gitRequests: 0, chartRequests: 0, applications: 0, moved: 0, errors: 0 };
    const refs = new Map<string, Promise<ReadonlyMap<string, string>>>();
    const charts = new Map<string, Promise<string>>();
    const refsOf = (repoURL: string) => {
      const key = normalizeRepoUrl(repoURL);
      let found = refs.get(key);
      if (!found) {
        result.gitRequests++;
        found = deps.listRefs(repoURL);
        refs.set(key, found);
      }
      return found;
    };
    const chartOf = (source: ApplicationSource) => {
      const key = `${normalizeRepoUrl(source.repoURL)}|${source.chart}|${source.targetRevision ?? ''}`;
      let found = charts.get(key);
      if (!found) {
        result.chartRequests++;
        found = deps.chartVersion(source);
        charts.set(key, found);
      }
      return found;
    };
    // One request per repository, `concurrency` at once; then every Application against the answers.
    const repos = [
      ...new Map(apps.flatMap(gitSourcesOf).map((s) => [normalizeRepoUrl(s.repoURL), s])).values(),
    ];
    await pool(repos, deps.concurrency ?? 4, (s) => refsOf(s.repoURL).catch(() => undefined));
    for (const app of apps) {
      try {
        const moved = await checkOne(app, trigger, refsOf, chartOf);
        result.applications++;
        if (moved) result.moved++;
      } catch (error) {
        result.errors++;
        deps.logger?.warn({ err: error, application: app.name }, 'target revision not resolved');
      }
    }
    return result;
  };

  const checkOne = async (
    app: Application,
    trigger: RevisionTrigger,
    refsOf: (repoURL: string) => Promise<ReadonlyMap<string, string>>,
    chartOf: (source: ApplicationSource) => Promise<string>,
  ): Promise<boolean> => {
    const sources = sourcesOf(app).filter((s) => s.repoURL !== '');
    const revisions: string[] = [];
    let branch: string | undefined;
    for (const source of sources) {
      if (source.chart) {
        revisions.push(await chartOf(source));
        continue;
      }
      const target = source.targetRevision;
      const sha = /^[0-9a-f]{40}$/i.test(target ?? '')
        ? target!.toLowerCase()
        : resolveGitTarget(await refsOf(source.repoURL), target);
      if (!sha) throw new Error(`revision "${target ?? 'HEAD'}" not found in ${source.repoURL}`);
      if (sources.length === 1) branch = branchOf(await refsOf(source.repoURL), target);
      revisions.push(sha);
    }
    const to = revisions.join(';');
    const single = sources.length === 1 ? sources[0] : undefined;
    const base = {
      app,
      to,
      trigger,
      ...(single ? { pin: to } : {}),
      ...(single && !single.chart
        ? {
            git: {
              repoURL: single.repoURL,
              ...(branch ? { branch } : {}),
              ...(single.path && single.path !== '.' ? { path: single.path } : {}),
            },
          }
        : {}),
    };
    const previous = await deps.store.swap(app.name, to);
    if (previous !== undefined && previous !== to) {
      const outcome = await deps
        .onMove({ ...base, from: previous, firstSync: false })
        .catch(async (error: unknown) => {
          await deps.store.restore(app.name, to, previous);
          throw error;
        });
      if (outcome === 'deferred') await deps.store.restore(app.name, to, previous);
      return true;
    }
    if (!isAutomated(app) || !(await deps.neverSynced(app))) return false;
    const claim = `first:${app.name}:${to}`;
    if (!(await deps.store.claim(claim, FIRST_SYNC_CLAIM_TTL_MS))) return false;
    const outcome = await deps.onMove({ ...base, firstSync: true }).catch(async (error: unknown) => {
      await deps.store.release(claim);
      throw error;
    });
    if (outcome === 'deferred') await deps.store.release(claim);
    return true;
  };

  const poll = (trigger: RevisionTrigger = { kind: 'poll' }) => {
    running ??= track(pass(trigger)).finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    poll,
    refreshRepository: (repoURL, trigger, only) => {
      const key = normalizeRepoUrl(repoURL);
      return track(
        pass(
          trigger,
          (app) =>
            gitSourcesOf(app).some((s) => normalizeRepoUrl(s.repoURL) === key) && (only?.(app) ?? true),
        ),
      );
    },
    start(intervalMs, jitterMs, random = Math.random) {
      if (intervalMs <= 0) return;
      const schedule = () => {
        if (stopped) return;
        const delay = intervalMs + Math.floor(random() * jitterMs);
        timer = setTimeout(() => {
          const leader = deps.lease
            ? deps.lease(Math.max(1, Math.floor(intervalMs * 0.8)))
            : Promise.resolve(true);
          leader
            .then((mine) => (mine && !running ? poll() : undefined))
            .catch((error: unknown) => deps.logger?.warn({ err: error }, 'revision poll failed'))
            .finally(schedule);
        }, delay);
        timer.unref();
      };
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** `syncPolicy.automated` set and not `enabled: false` (Argo CD 3.x). */
export function isAutomated(app: Application): boolean {
  const automated = app.syncPolicy?.automated;
  return automated !== undefined && automated.enabled !== false;
}

function gitSourcesOf(app: Application): ApplicationSource[] {
  return sourcesOf(app).filter((s) => s.repoURL !== '' && !s.chart);
}

async function pool<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(lanes);
}
