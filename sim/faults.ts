/**
 * Fault injection for the simulator's API server: a share of all requests (discovery, reads, writes, watches)
 * answered with what a real API server or its load balancer does under trouble — 500, 502, 503, 504, 429 with
 * Retry-After, or a connection reset — instead of being served. `rate` may be changed while the simulator runs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendStatus } from './api/http-io.js';
import { StatusError } from './api/status-error.js';

export type Fault = { status: 500 | 502 | 503 | 504 | 429 } | { reset: true };

export interface FaultInjection {
  /** Share of requests that fail, 0..1 (default 0). */
  rate: number;
  /** Faults answered so far. */
  readonly injected: number;
}

const KINDS: readonly Fault[] = [
  { status: 500 },
  { status: 502 },
  { status: 503 },
  { status: 504 },
  { status: 429 },
  { reset: true },
];

/** A fault source: `pick()` decides per request (uniformly among the kinds when it fails). */
export function faultInjection(random: () => number = Math.random): FaultInjection & {
  pick(): Fault | undefined;
} {
  let injected = 0;
  // Requests seen with a rate set, and their share owed: faults are spread evenly (one whenever the owed share
  // crosses a whole request), so a run of n requests fails exactly ⌊n·rate⌋ of them — a coin per request failed none
  // of a small sync's requests at 5% now and then, and the test that needs faults saw none (CI, 2026-12-02).
  let owed = 0;
  return {
    rate: 0,
    get injected() {
      return injected;
    },
    pick() {
      if (!(this.rate > 0)) return undefined;
      owed += this.rate;
      if (owed < 1) return undefined;
      owed -= 1;
      injected += 1;
      return KINDS[Math.floor(random() * KINDS.length)];
    },
  };
}

/** Answer `fault` on `res` (draining the request body first, so the client sees an answer, not a write error). */
export function answerFault(req: IncomingMessage, res: ServerResponse, fault: Fault): void {
  req.resume();
  req.once('end', () => {
    if ('reset' in fault) {
      req.socket.destroy();
      return;
    }
    if (fault.status === 429) {
      res.setHeader('Retry-After', '1');
      sendStatus(
        res,
        new StatusError(
          429,
          'TooManyRequests',
          'the server has received too many requests and has asked us to try again later',
          {},
        ),
      );
      return;
    }
    const reason =
      fault.status === 504 ? 'Timeout' : fault.status === 503 ? 'ServiceUnavailable' : 'InternalError';
    sendStatus(res, new StatusError(fault.status, reason, `injected fault: HTTP ${fault.status}`, {}));
  });
}
