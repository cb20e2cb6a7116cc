/**
 * The argoproj.io Application CRD for tests that store Application objects in the simulator: the one the demo
 * installs (examples/app-of-apps/application-crd.yaml), applied through the real client-node adapter.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { Simulator } from '../../sim/index.js';
import type { KubeObject } from '../../src/domain/index.js';
import type { Cluster } from '../../src/engine/cluster.js';

const FILE = path.resolve(import.meta.dirname, '../../examples/app-of-apps/application-crd.yaml');

/** The CRD object, as in the example file. */
const APPLICATION_CRD = parse(readFileSync(FILE, 'utf8')) as KubeObject;

/** Apply the CRD and resolve once the simulator reports it Established (its kind is then served). */
export async function installApplicationCrd(cluster: Cluster, sim: Simulator): Promise<void> {
  await cluster.apply(APPLICATION_CRD, { dryRun: false, force: true });
  await sim.waitFor(
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      namespace: '',
      name: APPLICATION_CRD.metadata.name ?? '',
    },
    (o) =>
      (o?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.some(
        (c) => c.type === 'Established' && c.status === 'True',
      ) === true,
  );
}
