/**
 * The wavesync Kubernetes API simulator: a loopback HTTP server that the real @kubernetes/client-node and
 * kubectl accept as a small cluster. See sim/README.md for the command convention and every limit.
 */

export type { ObjectRef } from './controllers/cluster-client.js';
export type { Condition, SimLogger } from './controllers/controller-context.js';
export type { KubeconfigOptions } from './kubeconfig.js';
export type { ContainerProgram } from './kubelet/command-program.js';
export { DEFAULT_STEP_SECONDS, programOf } from './kubelet/command-program.js';
export type { RequestRecord, Simulator, SimulatorOptions } from './simulator.js';
export { startSimulator } from './simulator.js';
export type { KubeObject } from './store/kube-object.js';
export { ARGO_CD_CRDS } from './testing/argo-cd-crds.js';
