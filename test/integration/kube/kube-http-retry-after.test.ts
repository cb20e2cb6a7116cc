import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiException } from '../../../src/kube/client-node.js';
import { KubeHttp } from '../../../src/kube/kube-http.js';
import { kubeConfigFor } from '../../support/token-kubeconfig.js';

/** A server answering each request with the next of `answers` (status, Retry-After), then 200. */
let server: Server;
let port: number;
let answers: { status: number; retryAfter?: string }[] = [];
let seen: { method: string; at: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', at: Date.now() });
    const next = answers.shift() ?? { status: 200 };
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (next.retryAfter !== undefined) headers['Retry-After'] = next.retryAfter;
    res.writeHead(next.status, headers);
    res.end(JSON.stringify(next.status === 200 ? { ok: true } : { kind: 'Status', code: next.status }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  answers = [];
  seen = [];
});

function kubeHttp(): KubeHttp {
  return new KubeHttp(kubeConfigFor(`http://127.0.0.1:${port}`), {
    requestTimeoutMs: 5_000,
    retry: { baseMs: 1 },
  });
}

describe('Retry-After on a GET and on a write', () => {
  it('a GET answered 429 and 503 waits each Retry-After, then takes the answer', async () => {
    answers = [
      { status: 429, retryAfter: '1' },
      { status: 503, retryAfter: '0' },
    ];
    expect(await kubeHttp().request({ method: 'GET', path: '/api/v1/pods' })).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    const [first, second, third] = seen.map((s) => s.at) as [number, number, number];
    expect(second - first).toBeGreaterThanOrEqual(950);
    expect(third - second).toBeLessThan(500);
  });

  it('a write answered 429 is one try; its error carries the Retry-After', async () => {
    answers = [{ status: 429, retryAfter: '7' }];
    const error = await kubeHttp()
      .request({ method: 'PATCH', path: '/api/v1/namespaces/d/configmaps/x', body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiException);
    expect((error as ApiException<unknown>).headers['retry-after']).toBe('7');
    expect(seen).toHaveLength(1);
  });
});
