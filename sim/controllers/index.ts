/**
 * Every simulated controller, started in this order by startSimulator().
 */
import type { Controller } from './controller-context.js';
import { crdController } from './crd-controller.js';

export const CONTROLLERS: readonly Controller[] = [crdController];
