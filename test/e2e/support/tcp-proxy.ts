/**
 * A TCP proxy in front of the Kubernetes API simulator, to take the API server away from a worker process without
 * stopping the simulator (which keeps the cluster's state). Modes:
 * - `pass`: bytes flow both ways;
 * - `refuse`: what a dead API server or a missing endpoint does — open connections are reset, new ones are
 *   closed with a RST as soon as they are accepted (the client sees ECONNRESET / "socket hang up");
 * - `hang`: a network partition — open connections stop moving bytes (paused, nothing lost, like TCP
 *   retransmitting into the void), new connections are accepted but not connected upstream; `pass` again lets the
 *   held bytes through, as a healed partition does within TCP's retransmission timeout.
 */
import { createServer, type Server, Socket } from 'node:net';

export type ProxyMode = 'pass' | 'refuse' | 'hang';

export interface TcpProxy {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly mode: ProxyMode;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream?: Socket;
  /** Resumes a connection accepted while hanging. */
  connect(): void;
}

/** Listen on 127.0.0.1 (a free port) and forward to `targetPort` on 127.0.0.1. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<Pair>();

  const server: Server = createServer((client) => {
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = {
      client,
      connect() {
        if (pair.upstream) return;
        const upstream = new Socket();
        pair.upstream = upstream;
        upstream.connect(targetPort, '127.0.0.1');
        client.pipe(upstream);
        upstream.pipe(client);
        upstream.on('error', () => client.destroy());
        upstream.on('close', () => client.destroy());
      },
    };
    pairs.add(pair);
    client.on('error', () => pair.upstream?.destroy());
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (mode === 'hang') client.pause();
    else pair.connect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
      for (const pair of pairs) {
        if (next === 'refuse') {
          pair.client.resetAndDestroy();
          pair.upstream?.destroy();
        } else if (next === 'hang') {
          pair.client.pause();
          pair.upstream?.pause();
        } else {
          pair.connect();
          pair.client.resume();
          pair.upstream?.resume();
        }
      }
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
