/**
 * SyncPreview — what a sync would do, computed before approval and again at decision time: the resolved revision
 * (git SHA, or the content hash of the rendered manifests for local sources; from the Applications renderer) and
 * the plan summary from `buildSyncTasks`, with live objects when a cluster is available.
 */
import type { ApplicationRenderer } from '../apps/render/render-application.js';
import type { Application, KubeObject, SyncOperation } from '../domain/index.js';
import { buildSyncTasks } from '../engine/index.js';
import { type PlanSummary, summarizePlan } from './plan-summary.js';

export interface SyncPreview {
  /** Resolved revision: git SHA or content hash. */
  revision: string;
  plan: PlanSummary;
}

/** Computes the preview of syncing `app` with `operation`. */
export type SyncPreviewer = (app: Application, operation: SyncOperation) => Promise<SyncPreview>;

export interface SyncPreviewerDeps {
  renderer: Pick<ApplicationRenderer, 'renderApplication'>;
  /** Live objects managed by the Application; omit when no cluster is available (the plan says so). */
  liveObjects?(app: Application): Promise<readonly KubeObject[]>;
}

/**
 * A SyncPreviewer over the renderer and, optionally, the cluster.
 * @throws the renderer's BotErrors (revision_not_found, render_failed, invalid_manifest).
 */
export function createSyncPreviewer(deps: SyncPreviewerDeps): SyncPreviewer {
  return async (app, operation) => {
    const rendered = await deps.renderer.renderApplication(
      app,
      operation.revision === undefined ? {} : { revision: operation.revision },
    );
    const live = deps.liveObjects ? await deps.liveObjects(app) : undefined;
    const { tasks } = buildSyncTasks({
      targets: rendered.targets,
      live: live ?? [],
      namespace: app.destination.namespace ?? '',
      revision: rendered.revision,
      startedAt: new Date().toISOString(),
      operation,
    });
    return { revision: rendered.revision, plan: summarizePlan(tasks, live !== undefined, operation.prune) };
  };
}
