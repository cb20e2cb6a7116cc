import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { kubeConfigFor } from '../../support/token-kubeconfig.js';

/** An API server serving ConfigMaps after 20 ms, counting requests in flight and the connections they came on. */
let server: Server;
let url: string;
let inFlight = 0;
let mostInFlight = 0;
const sockets = new Set<Socket>();
const urls: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const json = (body: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    urls.push(req.url ?? '');
    if (req.url === '/api/v1' || req.url === '/proxy/k8s/api/v1') {
      const resources = [{ name: 'configmaps', namespaced: true, kind: 'ConfigMap', verbs: ['get'] }];
      return json({ kind: 'APIResourceList', groupVersion: 'v1', resources });
    }
    const name = /\/configmaps\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '';
    sockets.add(req.socket);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('requests of the client-node adapter', () => {
  it('keep at most maxInFlight requests in flight, over kept-alive connections', async () => {
    const cluster = createKubeCluster(kubeConfigFor(url), { maxInFlight: 4 });
    const refs = Array.from({ length: 40 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: `cm-${i}`,
    }));

    const got = await Promise.all(refs.map((ref) => cluster.get(ref)));

    expect(got.map((o) => o?.metadata.name)).toEqual(refs.map((r) => r.name));
    expect(mostInFlight).toBe(4);
    // client-node alone opens one connection per request (40 here).
    expect(sockets.size).toBeLessThanOrEqual(5);
  });

  it('keep the path of a server URL behind a proxy (server: https://host/proxy/k8s) on every request', async () => {
    urls.length = 0;
    const cluster = createKubeCluster(kubeConfigFor(`${url}/proxy/k8s`));

    const got = await cluster.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'p' });

    expect(got?.metadata.name).toBe('p');
    expect(urls).toEqual(['/proxy/k8s/api/v1', '/proxy/k8s/api/v1/namespaces/default/configmaps/p']);
  });
});
