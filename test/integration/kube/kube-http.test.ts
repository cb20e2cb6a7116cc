import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { KubeHttp } from '../../../src/kube/kube-http.js';
import { makeTestCertificates } from '../../support/test-certificates.js';

/**
 * The adapter's own request path (kube-http.ts) against an HTTPS API server that trusts only client certificates
 * of its CA: TLS material and credentials must come from the kubeconfig exactly as client-node reads them.
 */
let dir: string;
let server: Server;
let url: string;
/** Per request: the Authorization header, the client certificate's CN and the TLS connection (1, 2, …). */
let seen: {
  authorization: string | undefined;
  clientCn: string | undefined;
  method: string;
  connection: number;
}[] = [];
const connections = new WeakMap<object, number>();
/** The next this many requests are refused with 401. */
let unauthorized = 0;

const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'wavesync-kube-http-'));
  // A CA, a server certificate for 127.0.0.1 and client certificates (CN=wavesync-test, a rotated one).
  makeTestCertificates(dir, 'test-ca', [
    { name: 'server', cn: '127.0.0.1', ip: '127.0.0.1' },
    { name: 'client', cn: 'wavesync-test' },
    { name: 'rotated', cn: 'wavesync-rotated' },
  ]);
  server = createServer(
    {
      key: readFileSync(file('server.key')),
      cert: readFileSync(file('server.crt')),
      ca: readFileSync(file('ca.crt')),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const authorization = req.headers.authorization;
      const clientCn = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN);
      if (!connections.has(req.socket)) connections.set(req.socket, seen.length + 1);
      const connection = connections.get(req.socket) ?? 0;
      seen.push({ authorization, clientCn, method: req.method ?? '', connection });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (unauthorized > 0) {
        unauthorized--;
        return json(401, {
          kind: 'Status',
          status: 'Failure',
          message: 'Unauthorized',
          reason: 'Unauthorized',
          code: 401,
        });
      }
      if (req.url === '/api/v1') {
        const resources = [
          { name: 'configmaps', namespaced: true, kind: 'ConfigMap', verbs: ['get', 'patch'] },
        ];
        return json(200, { kind: 'APIResourceList', groupVersion: 'v1', resources });
      }
      const name = /\/configmaps\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '';
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const sent = body === '' ? {} : (JSON.parse(body) as { data?: unknown });
        json(200, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: 'default' },
          data: sent.data,
        });
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  seen = [];
  unauthorized = 0;
});

/** A kubeconfig trusting the test CA, with the client certificate (as files) and `user` added. */
function kubeConfig(user: Record<string, unknown>): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: url, 'certificate-authority': file('ca.crt') } }],
      users: [
        {
          name: 'u',
          user: { 'client-certificate': file('client.crt'), 'client-key': file('client.key'), ...user },
        },
      ],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'default' } }],
      'current-context': 'ctx',
    }),
  );
  return kc;
}

/** An exec credential plugin printing token `exec-<n>` on its n-th run (no expirationTimestamp), counting runs. */
function execUser(): { exec: Record<string, unknown>; runs: () => number } {
  const counter = file(`runs-${Math.random().toString(36).slice(2)}`);
  writeFileSync(counter, '0');
  const script = file('plugin.cjs');
  writeFileSync(
    script,
    `const fs = require('node:fs');
const n = Number(fs.readFileSync(process.argv[2], 'utf8')) + 1;
fs.writeFileSync(process.argv[2], String(n));
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'exec-' + n } }));
`,
  );
  return {
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: process.execPath,
      args: [script, counter],
      interactiveMode: 'Never',
    },
    runs: () => Number(readFileSync(counter, 'utf8')),
  };
}

const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data: { k: name },
});
const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });

describe('the adapter request path over TLS with kubeconfig credentials', () => {
  it('verifies the server against the kubeconfig CA and presents the client certificate and bearer token on reads and writes', async () => {
    const cluster = createKubeCluster(kubeConfig({ token: 'static-token' }));

    const applied = await cluster.apply(configMap('a'), { dryRun: false, force: true });
    const read = await cluster.get(ref('b'));

    expect(applied.data).toEqual({ k: 'a' });
    expect(read?.metadata.name).toBe('b');
    const writes = seen.filter((s) => s.method === 'PATCH' || s.method === 'GET');
    expect(writes.length).toBeGreaterThanOrEqual(2);
    for (const request of seen) {
      expect(request).toMatchObject({ authorization: 'Bearer static-token', clientCn: 'wavesync-test' });
    }
  });

  it('refuses a server its CA did not sign', async () => {
    const kc = kubeConfig({ token: 'static-token' });
    // The client certificate as CA: the server's certificate does not chain to it.
    kc.clusters[0] = { ...kc.clusters[0]!, caFile: file('client.crt') };
    const cluster = createKubeCluster(kc, { requestTimeoutMs: 2000 });

    await expect(cluster.apply(configMap('x'), { dryRun: false, force: true })).rejects.toThrow();
    expect(seen).toEqual([]);
  });

  it('runs an exec credential plugin once for a burst of requests, not once per request', async () => {
    const plugin = execUser();
    const cluster = createKubeCluster(kubeConfig({ exec: plugin.exec }));

    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        cluster.apply(configMap(`c-${i}`), { dryRun: false, force: true }),
      ),
    );

    // client-node alone runs a plugin that gives no expirationTimestamp for every request (30 runs here);
    // discovery still goes through client-node (one request, one run); the credentials are reused for 1 s.
    expect(plugin.runs()).toBeLessThanOrEqual(3);
    expect(seen.filter((s) => s.method === 'PATCH')).toHaveLength(30);
  });

  it('answers a 401 by deriving the credentials again and trying once more (a token rotated under it)', async () => {
    const cluster = createKubeCluster(kubeConfig({ token: 'static-token' }));
    await cluster.get(ref('warm-up'));
    unauthorized = 1;

    const applied = await cluster.apply(configMap('after-rotation'), { dryRun: false, force: true });

    expect(applied.metadata.name).toBe('after-rotation');
    expect(seen.filter((s) => s.method === 'PATCH')).toHaveLength(2);
  });

  it('derives new credentials once for requests refused together (one exec plugin run, not one per request)', async () => {
    const plugin = execUser();
    const cluster = createKubeCluster(kubeConfig({ exec: plugin.exec }));
    await cluster.get(ref('warm-up'));
    const runsBefore = plugin.runs();
    unauthorized = 10;

    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        cluster.apply(configMap(`r-${i}`), { dryRun: false, force: true }),
      ),
    );

    expect(seen.filter((s) => s.method === 'PATCH')).toHaveLength(20);
    expect(plugin.runs() - runsBefore).toBeLessThanOrEqual(2);
  });
});

describe('rotated client certificates', () => {
  it('are picked up on the next derivation, with a new connection; unchanged material keeps the connection', async () => {
    copyFileSync(file('client.crt'), file('live.crt'));
    copyFileSync(file('client.key'), file('live.key'));
    const kc = kubeConfig({
      token: 't',
      'client-certificate': file('live.crt'),
      'client-key': file('live.key'),
    });
    // authTtlMs 0: every request derives the credentials (and TLS material) again.
    const http = new KubeHttp(kc, { requestTimeoutMs: 5000, authTtlMs: 0 });
    const get = (name: string) =>
      http.request({ method: 'GET', path: `/api/v1/namespaces/default/configmaps/${name}` });

    await get('before-1');
    await get('before-2');
    copyFileSync(file('rotated.crt'), file('live.crt'));
    copyFileSync(file('rotated.key'), file('live.key'));
    await get('after-1');
    await get('after-2');

    expect(seen.map((s) => s.clientCn)).toEqual([
      'wavesync-test',
      'wavesync-test',
      'wavesync-rotated',
      'wavesync-rotated',
    ]);
    const [first, second, third, fourth] = seen.map((s) => s.connection);
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(fourth).toBe(third);
  });
});

describe('the kubeconfig’s TLS checks on the keep-alive agent (only the options client-node set)', () => {
  const get = (http: KubeHttp, name: string) =>
    http.request({ method: 'GET', path: `/api/v1/namespaces/default/configmaps/${name}` });

  it('keeps insecure-skip-tls-verify: a server no CA is given for is answered', async () => {
    const kc = kubeConfig({ token: 't' });
    kc.clusters[0] = { name: 'c', server: url, skipTLSVerify: true };
    expect(await get(new KubeHttp(kc, { requestTimeoutMs: 5000 }), 'insecure')).toMatchObject({
      metadata: { name: 'insecure' },
    });
  });

  it('keeps tls-server-name: the server certificate is checked against it, not the URL’s host', async () => {
    const kc = kubeConfig({ token: 't' });
    kc.clusters[0] = { ...kc.clusters[0]!, tlsServerName: 'other.example' };
    await expect(get(new KubeHttp(kc, { requestTimeoutMs: 5000 }), 'x')).rejects.toThrow(/other\.example/);
    expect(seen).toEqual([]);
  });
});

describe('credentials held between derivations', () => {
  /** An exec plugin printing `exec-<n>` on its n-th run, failing while `fail` exists. */
  function flakyPlugin(): { kc: KubeConfig; fail: string } {
    const counter = file(`runs-${Math.random().toString(36).slice(2)}`);
    const fail = `${counter}.fail`;
    writeFileSync(counter, '0');
    const script = file('flaky-plugin.cjs');
    writeFileSync(
      script,
      `const fs = require('node:fs');
if (fs.existsSync(process.argv[3])) process.exit(1);
const n = Number(fs.readFileSync(process.argv[2], 'utf8')) + 1;
fs.writeFileSync(process.argv[2], String(n));
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'exec-' + n } }));
`,
    );
    const exec = {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: process.execPath,
      args: [script, counter, fail],
      interactiveMode: 'Never',
    };
    return { kc: kubeConfig({ exec }), fail };
  }

  it('are used until a 401 (then new ones, held in turn); after a failed derivation none are held', async () => {
    const { kc, fail } = flakyPlugin();
    const http = new KubeHttp(kc, { requestTimeoutMs: 5000, authTtlMs: 60_000 });
    const get = (name: string) =>
      http.request({ method: 'GET', path: `/api/v1/namespaces/default/configmaps/${name}` });

    await get('a');
    await get('b');
    unauthorized = 1;
    await Promise.all([get('c'), get('d')]);
    await get('e');
    expect(seen.map((s) => s.authorization)).toEqual([
      'Bearer exec-1',
      'Bearer exec-1',
      'Bearer exec-1', // c or d: refused
      'Bearer exec-1',
      'Bearer exec-2', // the refused one again
      'Bearer exec-2', // e: the new ones, held
    ]);

    writeFileSync(fail, '');
    unauthorized = 1;
    await expect(get('f')).rejects.toThrow();
    unauthorized = 1;
    // exec-2 was refused and no new credentials could be derived: nothing is held, the next request derives.
    await expect(get('g')).rejects.toThrow();
    rmSync(fail);
    unauthorized = 0;
    await get('h');
    await get('i');
    expect(seen.slice(6).map((s) => s.authorization)).toEqual([
      'Bearer exec-2', // f: refused; no credentials derived
      'Bearer exec-3', // h (g failed before sending)
      'Bearer exec-3',
    ]);
  });
});
