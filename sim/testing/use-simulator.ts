/**
 * Vitest wiring for a test file: one simulator (random port) started before the file's tests and stopped
 * after them, with client-node clients pointed at it. Read `cluster.sim` / `cluster.api` inside tests.
 */
import { afterAll, beforeAll } from 'vitest';
import { type Simulator, type SimulatorOptions, startSimulator } from '../simulator.js';
import { type KubeClients, kubeClients } from './kube-clients.js';

export interface SimulatedCluster {
  readonly sim: Simulator;
  readonly api: KubeClients;
}

export function useSimulator(options: SimulatorOptions = {}): SimulatedCluster {
  let sim: Simulator | undefined;
  let api: KubeClients | undefined;
  beforeAll(async () => {
    sim = await startSimulator(options);
    api = kubeClients(sim);
  });
  afterAll(() => sim?.stop());
  return {
    get sim() {
      if (!sim) throw new Error('the simulator is not started yet (use it inside tests or hooks)');
      return sim;
    },
    get api() {
      if (!api) throw new Error('the simulator is not started yet (use it inside tests or hooks)');
      return api;
    },
  };
}
