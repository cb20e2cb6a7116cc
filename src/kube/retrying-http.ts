/**
 * A client-node HttpLibrary that retries each GET (discovery, reads, lists — safe to repeat) on transient trouble:
 * HTTP 429 (after its Retry-After), 500/502/503/504, connection resets/refusals and per-request timeouts, with
 * exponential backoff and full jitter, each try with a fresh timeout. Discovery runs many GETs per call (one per API
 * group), so retrying per request is what keeps a 5% error rate from failing it; writes are retried one level up
 * (withRetries in ./retrying-cluster.ts), where a lost answer can be checked. Watches are not retried here (their
 * GETs stream; kube-watch.ts restarts them).
 */
import {
  IsomorphicFetchHttpLibrary,
  type RequestContext,
  type ResponseContext,
  wrapHttpLibrary,
} from '@kubernetes/client-node';
import { isTransientStatus } from './cluster-errors.js';

export interface HttpRetryPolicy {
  /** Tries per GET, the first included; default 6. */
  attempts?: number;
  /** First backoff ceiling in ms, doubled per retry; default 200. */
  baseMs?: number;
  /** Largest backoff and largest Retry-After honoured, in ms; default 5000. */
  maxMs?: number;
  /** Per-try timeout in ms (a fresh AbortSignal each try). */
  requestTimeoutMs: number;
}

const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

/** The HttpLibrary for `createConfiguration({ httpApi })`. */
export function retryingHttpLibrary(policy: HttpRetryPolicy) {
  const inner = new IsomorphicFetchHttpLibrary();
  const attempts = policy.attempts ?? 6;
  const baseMs = policy.baseMs ?? 200;
  const maxMs = policy.maxMs ?? 5000;
  const backoff = (n: number) => Math.floor(Math.random() * Math.min(maxMs, baseMs * 2 ** (n - 1)));
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  return wrapHttpLibrary({
    async send(request: RequestContext): Promise<ResponseContext> {
      const safe = request.getHttpMethod() === 'GET' && !request.getUrl().includes('watch=true');
      for (let attempt = 1; ; attempt++) {
        request.setSignal(AbortSignal.timeout(policy.requestTimeoutMs));
        const last = !safe || attempt >= attempts;
        try {
          const response = await inner.send(request).toPromise();
          if (last || !isTransientStatus(response.httpStatusCode)) return response;
          const retryAfter = Number(response.headers['retry-after']);
          await sleep(Number.isFinite(retryAfter) ? Math.min(maxMs, retryAfter * 1000) : backoff(attempt));
        } catch (error) {
          if (last || !isTransientNetworkError(error)) throw error;
          await sleep(backoff(attempt));
        }
      }
    },
  });
}

function isTransientNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; typeof e === 'object' && e !== null && !seen.has(e); ) {
    seen.add(e);
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (name === 'AbortError' || name === 'TimeoutError') return true;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
