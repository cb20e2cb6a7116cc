/** Resource health checks (spec §6): `getResourceHealth` and the options it takes. */
export { getResourceHealth, type HealthOptions, type HealthOverride } from './get-resource-health.js';
