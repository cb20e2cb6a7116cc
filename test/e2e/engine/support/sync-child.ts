/**
 * A sync in a child process, for the resume test: runs runOperation on a manifests folder against the cluster
 * of a kubeconfig, persisting the OperationState to a file after every pass (write + rename), and resuming from
 * that file when it exists. Usage: node --import tsx sync-child.ts <kubeconfig> <state.json> <dir> <namespace>
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { contentRevisionOf, loadManifests } from '../../../../src/applications/manifests/index.js';
import type { OperationState } from '../../../../src/domain/index.js';
import { runOperation } from '../../../../src/engine/index.js';
import { createKubeCluster } from '../../../../src/kube/kube-cluster.js';

const [kubeconfig, stateFile, dir, namespace] = process.argv.slice(2) as [string, string, string, string];
const kc = new KubeConfig();
kc.loadFromFile(kubeconfig);
const { objects } = await loadManifests(dir);
const initialState = existsSync(stateFile)
  ? (JSON.parse(readFileSync(stateFile, 'utf8')) as OperationState)
  : undefined;

const state = await runOperation({
  application: 'resume',
  targets: objects,
  namespace,
  revision: contentRevisionOf(objects),
  operation: { prune: false, dryRun: false, syncOptions: [] },
  cluster: createKubeCluster(kc),
  reporter: { report: async () => {} },
  initialState,
  options: { healthTimeoutMs: 2_000, pollIntervalMs: 500 },
  persist: async (s) => {
    writeFileSync(`${stateFile}.tmp`, JSON.stringify(s));
    renameSync(`${stateFile}.tmp`, stateFile);
  },
});
process.exitCode = state.phase === 'Succeeded' ? 0 : 1;
