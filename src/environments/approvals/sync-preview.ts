/**
 * SyncPreview — what a sync would do, computed before approval and again at decision time: the resolved revision
 * (git SHA, or the content hash of the rendered manifests for local sources; from the Applications renderer),
 * the plan summary from `buildSyncTasks`, and — when a cluster is available — the live diff from the engine's
 * diff (server-side dry run vs live, Secret values masked, the Application's ignoreDifferences honoured).
 */
import type { ApplicationRenderer } from '../../applications/index.js';
import {
  type Application,
  type KubeObject,
  type ResourceTracking,
  reasonForPeople,
  type SyncOperation,
  withApplicationSyncOptions,
} from '../../domain/index.js';
import {
  type ApplicationDiff,
  buildSyncTasksSliced,
  type Cluster,
  computeApplicationDiff,
  ignoreDifferencesOf,
  listTrackedLiveObjects,
  TimeSlice,
} from '../../engine/index.js';
import { type DiffSummary, diffSummaryWork } from './diff-summary.js';
import { type PlanSummary, planSummaryWork } from './plan-summary.js';

export interface SyncPreview {
  /** Resolved revision: git SHA or content hash. */
  revision: string;
  plan: PlanSummary;
  /** The live diff (masked), when a cluster was consulted and answered. */
  diff?: ApplicationDiff;
  /** Its summary, as an approval request keeps it. */
  diffSummary?: DiffSummary;
  /** Why the live state could not be read (the plan then says "live state not checked"). */
  liveError?: string;
}

/** Computes the preview of syncing `app` with `operation`. */
export type SyncPreviewer = (app: Application, operation: SyncOperation) => Promise<SyncPreview>;

export interface SyncPreviewerDeps {
  renderer: Pick<ApplicationRenderer, 'renderApplication'>;
  /** Live objects managed by the Application; omit when no cluster is available (the plan says so). */
  liveObjects?(app: Application): Promise<readonly KubeObject[]>;
  /**
   * The Application's destination cluster (the Cluster port): with it the preview lists the live objects and
   * computes the live diff. Takes precedence over `liveObjects`.
   */
  cluster?(app: Application): Cluster;
  /** How Applications' objects are marked (wavesync.yaml `resourceTracking`); default annotation tracking. */
  tracking?: ResourceTracking;
}

/**
 * A SyncPreviewer over the renderer and, optionally, the cluster. A cluster that cannot be read does not fail the
 * preview: `liveError` says why and the plan is the one without live state.
 * @throws the renderer's BotErrors (revision_not_found, render_failed, invalid_manifest).
 */
export function createSyncPreviewer(deps: SyncPreviewerDeps): SyncPreviewer {
  return async (app, requested) => {
    const operation = withApplicationSyncOptions(app, requested);
    const rendered = await deps.renderer.renderApplication(
      app,
      operation.revision === undefined ? {} : { revision: operation.revision },
    );
    const namespace = app.destination.namespace ?? '';
    let live: readonly KubeObject[] | undefined;
    let diff: ApplicationDiff | undefined;
    let liveError: string | undefined;
    try {
      if (deps.cluster) {
        const cluster = deps.cluster(app);
        live = await listTrackedLiveObjects(cluster, app.name, deps.tracking);
        const ignored = ignoreDifferencesOf(app);
        diff = await computeApplicationDiff({
          cluster,
          application: app.name,
          ...(deps.tracking ? { tracking: deps.tracking } : {}),
          targets: rendered.targets,
          namespace: namespace || 'default',
          revision: rendered.revision,
          operation: { ...operation, dryRun: true },
          ignoreDifferences: ignored.rules,
          warnings: ignored.warnings,
          live,
        });
      } else if (deps.liveObjects) {
        live = await deps.liveObjects(app);
      }
    } catch (error) {
      live = undefined;
      diff = undefined;
      liveError = reasonForPeople(error);
    }
    const { tasks } = await buildSyncTasksSliced({
      targets: rendered.targets,
      live: live ?? [],
      namespace,
      revision: rendered.revision,
      startedAt: new Date().toISOString(),
      operation,
    });
    // The plan's and the diff's summaries are loops over every object: in time slices (the bot's thread).
    const slice = new TimeSlice();
    await slice.pause();
    const plan = await slice.run(planSummaryWork(tasks, live !== undefined, operation.prune));
    const diffSummary = diff ? await slice.run(diffSummaryWork(diff)) : undefined;
    return {
      revision: rendered.revision,
      plan,
      ...(diff && diffSummary ? { diff, diffSummary } : {}),
      ...(liveError === undefined ? {} : { liveError }),
    };
  };
}

/**
 * `preview` as it crosses to another thread (serve's worker thread computes previews for the bot: the bot keeps
 * only this): the diff without its unchanged resources that carry no note. What reads a preview never uses those —
 * the summary is made already (`diffSummary`), the layouts, the modal and the shared file list changed resources
 * only, and the counts and fingerprint are the diff's own — so every message is the same, while a diff of 50,000
 * unchanged objects crosses as its counts instead of 50,000 entries.
 */
export function previewForTransfer(preview: SyncPreview): SyncPreview {
  if (!preview.diff) return preview;
  const resources = preview.diff.resources.filter((r) => r.action !== 'unchanged' || r.note !== undefined);
  return { ...preview, diff: { ...preview.diff, resources } };
}
