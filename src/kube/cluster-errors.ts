/**
 * Maps whatever @kubernetes/client-node 1.4.0 throws to a ClusterError: `ApiException` (HTTP status + body as a
 * JSON string holding a Kubernetes Status) keeps the API server's message and reason; network failures
 * (connection reset/refused, timeouts, aborted requests) are transient.
 */

import { withoutAddresses } from '../domain/index.js';
import { ClusterError } from '../engine/index.js';
import { ApiException } from './client-node.js';

const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
]);

interface KubeStatus {
  message?: string;
  reason?: string;
}

function parseStatus(body: unknown): KubeStatus {
  if (typeof body === 'object' && body !== null) return body as KubeStatus;
  if (typeof body !== 'string' || body === '') return {};
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? (parsed as KubeStatus) : { message: body };
  } catch {
    return { message: body.trim() };
  }
}

/** True for HTTP statuses worth retrying: request timeout, too many requests, server errors. */
export function isTransientStatus(statusCode: number): boolean {
  return statusCode === 408 || statusCode === 429 || statusCode >= 500;
}

/** Every string `code` along the error's `cause` chain (client-node wraps node-fetch's FetchError in its own). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  for (let e: unknown = error; typeof e === 'object' && e !== null && !seen.has(e); ) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

/** The ClusterError for any thrown value; `action` prefixes network errors, e.g. `apply apps/v1 Deployment web`. */
export function toClusterError(error: unknown, action: string): ClusterError {
  if (error instanceof ClusterError) return error;
  if (error instanceof ApiException) {
    const status = parseStatus(error.body);
    const message = status.message || `${action}: HTTP ${error.code}`;
    return new ClusterError(
      message,
      {
        statusCode: error.code,
        reason: status.reason,
        transient: isTransientStatus(error.code),
        ...retryAfterOf(error.headers),
      },
      { cause: error },
    );
  }
  const statusCode = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof statusCode === 'number') {
    return new ClusterError(
      `${action}: HTTP ${statusCode}`,
      { statusCode, transient: isTransientStatus(statusCode) },
      { cause: error },
    );
  }
  const text = error instanceof Error ? error.message : String(error);
  if (text.includes('Unrecognized API version and kind')) {
    // client-node's discovery found no such kind: what the API server would answer with 404 for its path.
    return new ClusterError(
      `${action}: ${text}`,
      { statusCode: 404, reason: 'NotFound', transient: false },
      { cause: error },
    );
  }
  const name = (error as { name?: unknown } | undefined)?.name;
  if (name === 'AbortError') {
    // The adapter's per-request timeout (KubeHttp requestTimeoutMs) is the only thing that aborts a request.
    return new ClusterError(
      `${action}: the API server did not answer within the request timeout`,
      { transient: true },
      { cause: error },
    );
  }
  const codes = errorCodes(error);
  const transient = codes.some((code) => TRANSIENT_NETWORK_CODES.has(code));
  const unreachable = codes.map((code) => UNREACHABLE[code]).find((why) => why !== undefined);
  if (unreachable) {
    // Say what happened in the user's words; the raw text (URL, errno) stays in the cause for whoever debugs it.
    return new ClusterError(
      `${action}: the API server could not be reached (${unreachable})`,
      { transient },
      { cause: error },
    );
  }
  return new ClusterError(`${action}: ${withoutAddresses(text)}`, { transient }, { cause: error });
}

/** What a network error code means for a user, as `the API server could not be reached (…)` says it. */
const UNREACHABLE: Record<string, string> = {
  ECONNRESET: 'connection reset',
  ECONNREFUSED: 'connection refused',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
  EAI_AGAIN: 'name lookup failed',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
};

/** `Retry-After` in seconds (the API server's form) as `{ retryAfterMs }`, or nothing. */
function retryAfterOf(headers: Record<string, string> | undefined): { retryAfterMs?: number } {
  const value = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'retry-after')?.[1];
  const seconds = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {};
}
