import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeHttp } from '../../../src/kube/kube-http.js';
import { kubeConfigFor } from '../../support/token-kubeconfig.js';

/** The request line KubeHttp sends: the server URL's path, the request path, the query as URLSearchParams writes it. */
let server: Server;
let port: number;
const urls: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    urls.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function httpOf(serverPath = ''): KubeHttp {
  return new KubeHttp(kubeConfigFor(`http://127.0.0.1:${port}${serverPath}`), { requestTimeoutMs: 5_000 });
}

describe('the query of a request', () => {
  it('is written exactly as URLSearchParams writes it, undefined values left out', async () => {
    const query = {
      labelSelector: 'app in (a,b),tier!=web',
      fieldSelector: 'metadata.name=x y',
      fieldManager: 'wavesync',
      odd: "~!*'()-._ é/?&=+% \uD800x",
      dryRun: undefined,
      limit: '500',
    };
    await httpOf().request({ method: 'GET', path: '/api/v1/pods', query });
    const expected = new URLSearchParams(
      Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined),
    ).toString();
    expect(urls.at(-1)).toBe(`/api/v1/pods?${expected}`);
  });

  it('is left off when every value is undefined, and the server URL’s own path comes first', async () => {
    await httpOf('/k8s/clusters/c-1/').request({ method: 'GET', path: '/api', query: { watch: undefined } });
    expect(urls.at(-1)).toBe('/k8s/clusters/c-1/api');
  });
});

describe('the query of a request with a lone surrogate (a string cut inside a surrogate pair)', () => {
  it('is written as URLSearchParams writes it (U+FFFD), not refused', async () => {
    const query = { labelSelector: 'app=a\uD83D', 'k\uDC00': 'v\uD83D\uDE00\uDE00', pair: '\uD83D\uDE00' };
    await httpOf().request({ method: 'GET', path: '/api/v1/pods', query });
    expect(urls.at(-1)).toBe(`/api/v1/pods?${new URLSearchParams(query).toString()}`);
  });
});
