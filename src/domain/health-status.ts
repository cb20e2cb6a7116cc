/**
 * HealthStatus — Argo CD's resource health vocabulary.
 * Source: Argo CD gitops-engine `pkg/health/health.go`.
 */

/** Health codes, ordered most → least healthy (the order gitops-engine uses to aggregate). */
export const HEALTH_STATUS_CODES = [
  'Healthy',
  'Suspended',
  'Progressing',
  'Missing',
  'Degraded',
  'Unknown',
] as const;
export type HealthStatusCode = (typeof HEALTH_STATUS_CODES)[number];

/** The health of one resource or of a whole Application. */
export interface HealthStatus {
  status: HealthStatusCode;
  /** Human-readable reason, e.g. `Waiting for rollout to finish: 1 of 2 updated replicas are available...` */
  message?: string;
}

/** True when `a` is less healthy than `b` (gitops-engine `IsWorse`). */
export function isWorse(a: HealthStatusCode, b: HealthStatusCode): boolean {
  return HEALTH_STATUS_CODES.indexOf(a) > HEALTH_STATUS_CODES.indexOf(b);
}

/** The least healthy of several statuses; `Healthy` for an empty list. */
export function worstHealth(statuses: readonly HealthStatus[]): HealthStatus {
  let worst: HealthStatus = { status: 'Healthy' };
  for (const s of statuses) if (isWorse(s.status, worst.status)) worst = s;
  return worst;
}
