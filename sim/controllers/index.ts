/**
 * Every simulated controller, started in this order by startSimulator() (the kubelet is started separately
 * because tests hold its handle).
 */
import type { Controller } from './controller-context.js';
import { crdController } from './crd-controller.js';
import { daemonSetController } from './daemonset-controller.js';
import { demoDatabaseController } from './demo-database-controller.js';
import { deploymentController } from './deployment-controller.js';
import { garbageCollector } from './garbage-collector.js';
import { infrastructureControllers } from './infrastructure-controllers.js';
import { jobController } from './job-controller.js';
import { namespaceController } from './namespace-controller.js';
import { replicaSetController } from './replicaset-controller.js';
import { statefulSetController } from './statefulset-controller.js';

export const CONTROLLERS: readonly Controller[] = [
  crdController,
  namespaceController,
  garbageCollector,
  deploymentController,
  replicaSetController,
  statefulSetController,
  daemonSetController,
  jobController,
  infrastructureControllers,
  demoDatabaseController,
];
