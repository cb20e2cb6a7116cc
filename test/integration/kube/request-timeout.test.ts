import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { ClusterError } from '../../../src/engine/cluster.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { failure } from '../../support/failure.js';
import { kubeConfigFor } from '../../support/token-kubeconfig.js';

/** An API server that accepts connections and reads requests but never answers: a silent network. */
let silent: Server;
let silentUrl: string;
let sim: Simulator;
/** An API server whose every connection is reset as soon as it is accepted (a dying server, a broken proxy). */
let resetting: NetServer;
let resettingUrl: string;
/**
 * A port nobody listens on: connections refused. Port 1, as the other tests that need a refusal use: a port found free
 * and closed again is the kernel's to hand out, and a server of another test file running beside this one took it
 * (the connection was reset, not refused).
 */
const closedUrl = 'http://127.0.0.1:1';

beforeAll(async () => {
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  sim = await startSimulator({ speed: 20 });
  resetting = createNetServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
  resettingUrl = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}`;
});

afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
  await new Promise((resolve) => resetting.close(resolve));
  await sim.stop();
});

describe('per-request timeout of the client-node adapter', () => {
  it('when the API server never answers, then each call fails with a transient ClusterError naming the timeout', async () => {
    const cluster = createKubeCluster(kubeConfigFor(silentUrl), { requestTimeoutMs: 300 });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'x' };
    for (const attempt of [
      () => cluster.get(ref),
      () => cluster.listKinds(),
      () => cluster.podLogs('default', 'p', { tailLines: 5 }),
    ]) {
      const error = await failure(attempt());
      expect(error).toBeInstanceOf(ClusterError);
      expect((error as ClusterError).transient).toBe(true);
      expect((error as ClusterError).message).toMatch(/did not answer within the request timeout/);
    }
  });

  it.each([
    ['resets every connection', () => resettingUrl, 'connection reset'],
    ['refuses connections', () => closedUrl, 'connection refused'],
  ])(
    'when the API server %s, then each call fails with a transient ClusterError saying it could not be reached',
    async (_, url, why) => {
      // Before: the raw fetch text only ("request to http://… failed, reason: read ECONNRESET"), in the header too.
      const cluster = createKubeCluster(kubeConfigFor(url()), { requestTimeoutMs: 300 });
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'x' };
      for (const attempt of [() => cluster.get(ref), () => cluster.listKinds()]) {
        const error = await failure(attempt());
        expect(error).toBeInstanceOf(ClusterError);
        expect((error as ClusterError).transient).toBe(true);
        expect((error as ClusterError).message).toContain(`the API server could not be reached (${why})`);
      }
    },
    60_000,
  );

  it('when the API server answers in time, then the timeout does not get in the way (applies, raw bodies included)', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
    const cluster = createKubeCluster(kc, { requestTimeoutMs: 5000 });
    const applied = await cluster.apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'timely', namespace: 'default' },
        data: { a: '1' },
      },
      { force: true, dryRun: false },
    );
    expect(applied.metadata.uid).toBeTruthy();
    const live = await cluster.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: 'timely',
    });
    expect(live?.data).toEqual({ a: '1' });
  });
});
