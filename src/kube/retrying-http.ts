/**
 * Retries of each GET (discovery, reads, lists — safe to repeat) on transient trouble: HTTP 429 (after its
 * Retry-After), 500/502/503/504, connection resets/refusals and per-request timeouts, with exponential backoff and
 * full jitter, each try with a fresh timeout (KubeHttp). Discovery runs many GETs per call (one per API group), so
 * retrying per request is what keeps a 5% error rate from failing it; writes are retried one level up (withRetries
 * in ./retrying-cluster.ts), where a lost answer can be checked. Watches are not retried here (kube-watch.ts
 * restarts them).
 */
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

/**
 * Runs `attempt` (one try of one request, with its own timeout) and, when `safe`, tries again after a transient
 * status or network error as described above; the last try's answer or error is returned or thrown.
 */
export async function withHttpRetries<A extends { status: number; retryAfter?: unknown }>(
  safe: boolean,
  policy: HttpRetryPolicy,
  attempt: () => Promise<A>,
): Promise<A> {
  const attempts = policy.attempts ?? 6;
  const baseMs = policy.baseMs ?? 200;
  const maxMs = policy.maxMs ?? 5000;
  const backoff = (n: number) => Math.floor(Math.random() * Math.min(maxMs, baseMs * 2 ** (n - 1)));
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  for (let tried = 1; ; tried++) {
    const last = !safe || tried >= attempts;
    try {
      const answer = await attempt();
      if (last || !isTransientStatus(answer.status)) return answer;
      const retryAfter = Number(answer.retryAfter);
      await sleep(Number.isFinite(retryAfter) ? Math.min(maxMs, retryAfter * 1000) : backoff(tried));
    } catch (error) {
      if (last || !isTransientNetworkError(error)) throw error;
      await sleep(backoff(tried));
    }
  }
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
