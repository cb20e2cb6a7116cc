/**
 * argoproj.io Application (app of apps) health. Argo CD has had **no** built-in check since 1.8 (spec §6.4), so
 * `getResourceHealth` returns undefined for it by default and a parent's wave does not wait for its children.
 * With `{ applicationHealth: true }` this check is used instead: the Lua customization documented in Argo CD
 * `operator-manual/health` (`resource.customizations.health.argoproj.io_Application`): the child's
 * `status.health` when present, else Progressing.
 */
import { HEALTH_STATUS_CODES, type HealthStatus, type KubeObject } from '../../domain/index.js';
import { stringAt } from './object-fields.js';

export function getApplicationHealth(obj: KubeObject): HealthStatus {
  const status = stringAt(obj, 'status.health.status');
  const message = stringAt(obj, 'status.health.message');
  if (status === '')
    return { status: 'Progressing', message: 'Waiting for the Application to report health' };
  const known = (HEALTH_STATUS_CODES as readonly string[]).includes(status);
  return known
    ? { status: status as HealthStatus['status'], message }
    : { status: 'Unknown', message: `unknown health status ${status}` };
}
