/**
 * startSimulator(): wires the store, the type registry, the HTTP API and the controllers into one running
 * simulated cluster on loopback.
 */

import { writeFile } from 'node:fs/promises';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiServer } from './api/http-server.js';
import { ObjectApi } from './api/object-api.js';
import { CRD_TYPE_KEY, TypeRegistry } from './api/type-registry.js';
import { WritePipeline } from './api/write-pipeline.js';
import { bootstrapCluster } from './controllers/bootstrap.js';
import { ClusterClient } from './controllers/cluster-client.js';
import type { ControllerContext, SimLogger } from './controllers/controller-context.js';
import { CRD_ESTABLISH_SECONDS } from './controllers/crd-controller.js';
import { EventRecorder } from './controllers/event-recorder.js';
import { CONTROLLERS } from './controllers/index.js';
import { Scheduler } from './controllers/scheduler.js';
import { type FaultInjection, faultInjection } from './faults.js';
import { buildKubeconfig, type KubeconfigOptions } from './kubeconfig.js';
import { kubelet } from './kubelet/kubelet.js';
import { PodLogStore } from './kubelet/pod-log-store.js';
import { ObjectStore } from './store/object-store.js';
import { TestHelpers } from './test-helpers.js';

export interface SimulatorOptions {
  /** TCP port (default 0: an ephemeral port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Time factor: 10 runs simulated time ten times faster than the wall clock (default 1). */
  speed?: number;
  logger?: SimLogger;
  /** Change events kept for watches before older resourceVersions answer 410 Gone (default 5000). */
  watchHistory?: number;
  /** Simulated seconds before a new CRD is Established and its kind served (default 0.5). */
  crdEstablishSeconds?: number;
  /**
   * Whether /api and /apis answer the aggregated discovery form (apidiscovery.k8s.io/v2) to a client that asks for
   * it (default true, as Kubernetes ≥ 1.26); false answers the legacy documents only, as an older API server.
   */
  aggregatedDiscovery?: boolean;
}

export interface RequestRecord {
  method: string;
  path: string;
  code: number;
  /** When it was answered (ms since epoch). */
  at: number;
  /** The bearer token it came with (KubeconfigOptions.token tells clients apart). */
  user?: string;
}

export interface Simulator extends TestHelpers {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  readonly speed: number;
  /** Every HTTP request served, in order (method, path with query, status code, time). */
  readonly requests: RequestRecord[];
  /** Kubeconfig YAML for this simulator (insecure-skip-tls-verify, token user). */
  kubeconfig(options?: KubeconfigOptions): string;
  writeKubeconfig(path: string, options?: KubeconfigOptions): Promise<void>;
  /** Fault injection: set `faults.rate` (0..1) to fail that share of requests transiently (sim/faults.ts). */
  readonly faults: FaultInjection;
  /** Close watches and the server, cancel every timer. */
  stop(): Promise<void>;
}

const SILENT: SimLogger = { info: () => undefined, debug: () => undefined, warn: () => undefined };

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new Error(`speed must be a positive number, got ${speed}`);
  const logger = options.logger ?? SILENT;
  const store = new ObjectStore(options.watchHistory);
  const registry = new TypeRegistry(
    () => store.list(CRD_TYPE_KEY),
    () => store.typeVersion(CRD_TYPE_KEY),
  );
  const pipeline = new WritePipeline(store);
  const objects = new ObjectApi(store, pipeline);
  const scheduler = new Scheduler(speed);
  const logs = new PodLogStore();
  const pinned = new Set<string>();
  const client = new ClusterClient(store, registry, objects, 'kube-controller-manager');
  const ctx: ControllerContext = {
    client,
    scheduler,
    events: new EventRecorder(() => client),
    logs,
    logger,
    isPinned: (obj) => pinned.has(obj.metadata.uid ?? ''),
    crdEstablishSeconds: options.crdEstablishSeconds ?? CRD_ESTABLISH_SECONDS,
  };
  for (const controller of CONTROLLERS) controller(ctx);
  const node = kubelet(ctx);
  bootstrapCluster(client);
  const watches = new Set<ServerResponse>();
  const requests: RequestRecord[] = [];
  const faults = faultInjection();
  const server = createApiServer({
    fault: () => faults.pick(),
    store,
    objects,
    registry,
    readLog: (ns, name, container, tail, previous) =>
      logs.read(store.get('/pods', ns, name), name, container, tail, previous),
    bookmarkIntervalMs: scheduler.ms(60),
    aggregatedDiscovery: options.aggregatedDiscovery ?? true,
    trackWatch: (res) => {
      watches.add(res);
      return () => watches.delete(res);
    },
    onRequest: (method, path, code, user) => {
      requests.push({ method, path, code, at: Date.now(), ...(user === undefined ? {} : { user }) });
      logger.debug({ method, path, code }, 'sim request');
    },
  });
  const port = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  logger.info({ url, speed }, 'Kubernetes API simulator listening');
  const helpers = new TestHelpers(client, ctx, pinned, node);
  return Object.assign(helpers, {
    url,
    port,
    speed,
    requests,
    faults,
    kubeconfig: (o?: KubeconfigOptions) => buildKubeconfig(url, o),
    writeKubeconfig: (path: string, o?: KubeconfigOptions) =>
      writeFile(path, buildKubeconfig(url, o), { mode: 0o600 }),
    stop: async () => {
      scheduler.stop();
      for (const res of watches) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}
