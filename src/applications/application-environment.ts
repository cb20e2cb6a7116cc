/**
 * Which environment an Application belongs to: the `wavesync.io/environment` label, else the annotation of the
 * same name. The approvals work (issue 7) may add rules on destination; this is the manifest-level marker.
 */
import type { Application } from '../domain/index.js';

export const ENVIRONMENT_LABEL = 'wavesync.io/environment';

/** The environment named on the Application, or undefined. */
export function environmentOf(app: Pick<Application, 'labels' | 'annotations'>): string | undefined {
  return app.labels[ENVIRONMENT_LABEL] ?? app.annotations[ENVIRONMENT_LABEL];
}
