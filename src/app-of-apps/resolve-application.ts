/**
 * Which Application a sync request syncs: a registered one (wavesync.yaml sources) by name, or — for an App of
 * Apps child (`request.appOfApps`) — the child Application the parent's manifests define, carried in the request
 * and validated again here (zod, `applicationFromObject`). A child that names no environment (label, annotation
 * or destination rule) belongs to its parent's, so its failures are announced where the parent's are.
 */

import { applicationFromObject, ENVIRONMENT_LABEL } from '../applications/index.js';
import { type Application, BotError } from '../domain/index.js';
import { environmentNameOf } from '../environments/index.js';
import { currentChild, type SyncRequest } from '../queue/index.js';
import type { Settings } from '../settings/index.js';

export type ApplicationResolver = (request: Pick<SyncRequest, 'application' | 'appOfApps'>) => Application;

/**
 * Build the resolver.
 * @throws BotError('application_not_found') (from the registry) for an unknown registered Application;
 *   ManifestError for a child manifest that is not a valid Application.
 */
export function createApplicationResolver(deps: {
  registry: { get(name: string): Application };
  settings: Pick<Settings, 'environments'>;
}): ApplicationResolver {
  return (request) => {
    const chain = request.appOfApps;
    if (!chain) return deps.registry.get(request.application);
    const child = currentChild(chain);
    const at = child.origin.lastIndexOf(':');
    const source =
      at > 0
        ? { file: child.origin.slice(0, at), line: Number(child.origin.slice(at + 1)) || 1 }
        : { file: child.origin || `(children of ${chain.parent})`, line: 1 };
    const app = applicationFromObject(child.manifest as Application['manifest'], source);
    if (app.name !== request.application) {
      throw new BotError(
        'invalid_command',
        `App of Apps child ${child.name} of ${chain.parent} is not the requested application ${request.application}`,
      );
    }
    if (chain.environment === undefined || environmentNameOf(deps.settings, app) !== undefined) return app;
    return { ...app, labels: { ...app.labels, [ENVIRONMENT_LABEL]: chain.environment } };
  };
}
