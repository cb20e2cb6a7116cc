/**
 * healthOf — the health of a live object under one operation's health options (EngineOptions.applicationHealth
 * healthOverrides and scriptedHealth): getResourceHealth with the options the SyncContext carries.
 */
import type { HealthStatus, KubeObject } from '../../domain/index.js';
import type { SyncContext } from '../sync-context.js';
import { getResourceHealth } from './get-resource-health.js';

/** The health of a live object with the operation's health options (undefined = the kind has no check). */
export function healthOf(ctx: SyncContext, obj: KubeObject): Promise<HealthStatus | undefined> {
  return getResourceHealth(obj, {
    applicationHealth: ctx.options.applicationHealth,
    overrides: ctx.options.healthOverrides,
    scripted: ctx.options.scriptedHealth,
  });
}
