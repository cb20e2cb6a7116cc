/**
 * SyncPreview — what a sync would do, computed before approval and again at decision time: the resolved revision
 * (git SHA, or the content hash of the rendered manifests for directory sources) and the plan summary from
 * `buildSyncTasks`, with live objects when a cluster is available.
 */
import type { Application, KubeObject, SyncOperation } from '../domain/index.js';
import { buildSyncTasks, type SourcedObject } from '../engine/index.js';
import { type PlanSummary, summarizePlan } from './plan-summary.js';

export interface SyncPreview {
  /** Resolved revision: git SHA or content hash. */
  revision: string;
  plan: PlanSummary;
}

/** Computes the preview of syncing `app` with `operation`. */
export type SyncPreviewer = (app: Application, operation: SyncOperation) => Promise<SyncPreview>;

/** The rendered desired state of an Application (the registry's renderApplication result has this shape). */
export interface RenderedApplication {
  revision: string;
  objects: readonly SourcedObject[];
}

export interface SyncPreviewerDeps {
  /** Render the Application's manifests at the operation's revision. */
  render(app: Application, operation: SyncOperation): Promise<RenderedApplication>;
  /** Live objects managed by the Application; omit when no cluster is available (the plan says so). */
  liveObjects?(app: Application): Promise<readonly KubeObject[]>;
}

/** A SyncPreviewer over a renderer and, optionally, the cluster. */
export function createSyncPreviewer(deps: SyncPreviewerDeps): SyncPreviewer {
  return async (app, operation) => {
    const rendered = await deps.render(app, operation);
    const live = deps.liveObjects ? await deps.liveObjects(app) : undefined;
    const { tasks } = buildSyncTasks({
      targets: rendered.objects,
      live: live ?? [],
      namespace: app.destination.namespace ?? '',
      revision: rendered.revision,
      startedAt: new Date().toISOString(),
      operation,
    });
    return {
      revision: rendered.revision,
      plan: summarizePlan(tasks, live !== undefined, operation.prune),
    };
  };
}
