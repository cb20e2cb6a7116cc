/**
 * The resources a selective sync (`/sync <app> --resource kind/name`) may name: the Application's rendered
 * manifests at `revision` (default its targetRevision), each as a SyncOperationResource with the namespace
 * defaulted to the Application's destination namespace. An unknown Application has none ([]).
 * Throws what rendering throws (ManifestError with file and line, a git or tool error).
 */
import { resourceKeyOf, type SyncOperationResource } from '../domain/index.js';
import type { ApplicationsFromSettings } from './applications-from-settings.js';

export async function renderedResourcesOf(
  apps: Pick<ApplicationsFromSettings, 'registry' | 'renderer'>,
  name: string,
  revision: string | undefined,
): Promise<SyncOperationResource[]> {
  const app = apps.registry.find(name);
  if (!app) return [];
  const rendered = await apps.renderer.renderApplication(app, revision === undefined ? {} : { revision });
  return rendered.targets.map(({ object }) => {
    const key = resourceKeyOf(object);
    return { ...key, namespace: key.namespace || (app.destination.namespace ?? '') };
  });
}
