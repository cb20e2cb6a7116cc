/**
 * KubeHttp.watch on the wire (the simulator's watches are covered in kube-cluster.test.ts): an event split over
 * chunks, a line that is not JSON, the server's end of the watch, a refusal and a stop — each as client-node's Watch
 * reported them to kube-watch.ts.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeHttp } from '../../../src/kube/kube-http.js';
import { kubeConfigFor } from '../../support/token-kubeconfig.js';

let server: Server;
let url: string;
let http: KubeHttp;
const urls: string[] = [];
const authorizations: (string | undefined)[] = [];
/** How the next watch request is answered. */
let answer: (res: ServerResponse) => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    urls.push(req.url ?? '');
    authorizations.push(req.headers.authorization);
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  http = new KubeHttp(kubeConfigFor(url), { requestTimeoutMs: 200 });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Outcome {
  events: [string, unknown][];
  error: (Error & { statusCode?: number }) | null;
}

/** Watches `/api/v1/configmaps` until the watch is done; `stop` aborts it once the first event is in. */
function watchOnce(stop = false, through = http): Promise<Outcome> {
  return new Promise((resolve) => {
    const events: [string, unknown][] = [];
    let controller: { abort(): void } | undefined;
    void through
      .watch(
        '/api/v1/configmaps',
        { resourceVersion: '7', timeoutSeconds: '30' },
        (type, object) => {
          events.push([type, object]);
          if (stop) controller?.abort();
        },
        (error) => resolve({ events, error }),
      )
      .then((c) => {
        controller = c;
      });
  });
}

const event = (name: string) =>
  `${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name } } })}\n`;

describe('KubeHttp.watch', () => {
  it('hands on each event of the answer, an event split over chunks whole, a line that is not JSON skipped', async () => {
    answer = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const [first, second] = [event('a'), event('b')];
      res.write(first + second.slice(0, 10));
      setTimeout(() => res.write(second.slice(10, 30)), 20);
      setTimeout(() => res.write(`${second.slice(30)}not json\n`), 40);
      setTimeout(() => res.end(event('c').trimEnd()), 300); // the last line without its newline
    };

    const outcome = await watchOnce();

    expect(urls.at(-1)).toBe('/api/v1/configmaps?watch=true&resourceVersion=7&timeoutSeconds=30');
    expect(
      outcome.events.map(([type, o]) => `${type} ${(o as { metadata: { name: string } }).metadata.name}`),
    ).toEqual(['ADDED a', 'ADDED b', 'ADDED c']);
    expect(outcome.error).toBeNull(); // the server ended the watch, after the request time limit (200 ms): none applies
  });

  it('reports a refusal with its status code', async () => {
    answer = (res) => {
      res.writeHead(410, { 'Content-Type': 'application/json' });
      res.end('{"kind":"Status","code":410}');
    };

    const outcome = await watchOnce();

    expect(outcome.events).toEqual([]);
    expect(outcome.error?.statusCode).toBe(410);
    expect(outcome.error?.message).toBe('Gone');
  });

  it('derives new credentials after a 401, for the watch that follows', async () => {
    const kc = kubeConfigFor(url);
    const refreshing = new KubeHttp(kc, { requestTimeoutMs: 200, authTtlMs: 60_000 });
    answer = (res) => {
      kc.users = [{ name: 'u', token: 'renewed-token' }]; // the token was renewed (an exec plugin's next one)
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end('{"kind":"Status","code":401}');
    };
    expect((await watchOnce(false, refreshing)).error?.statusCode).toBe(401);
    answer = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end();
    };

    expect((await watchOnce(false, refreshing)).error).toBeNull();
    expect(authorizations.slice(-2)).toEqual(['Bearer secret-token', 'Bearer renewed-token']);
  });

  it('ends with an AbortError when stopped, though the server keeps the answer open', async () => {
    answer = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(event('a'));
      res.write(event('b'));
    };

    const outcome = await watchOnce(true);

    expect(outcome.events).toHaveLength(1); // nothing is handed on after the stop
    expect(outcome.error?.name).toBe('AbortError');
  });
});
