/**
 * PreDelete / PostDelete hooks of an Application (Argo CD `controller/hook.go`; spec §9.3): objects whose
 * `argocd.argoproj.io/hook` contains `PreDelete` / `PostDelete`, or whose `helm.sh/hook` contains `pre-delete` /
 * `post-delete`. They take no part in syncs (the engine ignores them) and run when the Application is deleted with
 * a cascade: PreDelete before any resource is deleted, PostDelete after all of them are gone.
 */

import type { ApplicationRenderer } from '../applications/index.js';
import type { Application, KubeObject } from '../domain/index.js';
import { Annotations } from '../domain/index.js';
import { annotationCsvOf } from '../engine/index.js';

export type DeletionHookType = 'PreDelete' | 'PostDelete';

/** The deletion hook types of `obj` (both when it names both), in PreDelete, PostDelete order. */
export function deletionHookTypesOf(obj: KubeObject): DeletionHookType[] {
  const argo = annotationCsvOf(obj, Annotations.hook);
  const helm = annotationCsvOf(obj, Annotations.helmHook);
  const types: DeletionHookType[] = [];
  if (argo.includes('PreDelete') || helm.includes('pre-delete')) types.push('PreDelete');
  if (argo.includes('PostDelete') || helm.includes('post-delete')) types.push('PostDelete');
  return types;
}

/** The Application's deletion hooks from its rendered manifests; namespaceless ones get `namespace`. */
export interface DeletionHooks {
  preDelete: KubeObject[];
  postDelete: KubeObject[];
}

/** Pick the PreDelete/PostDelete hooks out of rendered manifests. */
export function deletionHooksOf(objects: readonly KubeObject[], namespace: string): DeletionHooks {
  const hooks: DeletionHooks = { preDelete: [], postDelete: [] };
  for (const obj of objects) {
    const types = deletionHookTypesOf(obj);
    if (types.length === 0) continue;
    const placed = obj.metadata.namespace ? obj : { ...obj, metadata: { ...obj.metadata, namespace } };
    if (types.includes('PreDelete')) hooks.preDelete.push(placed);
    if (types.includes('PostDelete')) hooks.postDelete.push(placed);
  }
  return hooks;
}

/**
 * The deletion hooks in `app`'s manifests rendered at its targetRevision (or `revision`: a removed generated
 * Application's last synced commit, src/appset-removal/removed-applications.ts).
 * @throws the renderer's BotErrors (revision_not_found, render_failed, invalid_manifest).
 */
export async function renderedDeletionHooks(
  apps: { renderer: Pick<ApplicationRenderer, 'renderApplication'> },
  app: Application,
  revision?: string,
): Promise<DeletionHooks> {
  const rendered = await apps.renderer.renderApplication(app, revision === undefined ? {} : { revision });
  return deletionHooksOf(
    rendered.targets.map((t) => t.object),
    app.destination.namespace ?? 'default',
  );
}
