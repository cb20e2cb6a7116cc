/** Resource health checks (spec §6): `getResourceHealth` and the options it takes. */
export { getResourceHealth } from './get-resource-health.js';
