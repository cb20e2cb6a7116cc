/**
 * withRetry — retries a Cluster call on transient ClusterErrors (timeouts, 429, 5xx, connection resets) with
 * exponential backoff (default 5 attempts: 100, 200, 400, 800 ms between them); permanent errors are thrown at
 * once so the task fails with the API server's message.
 */
import { ClusterError } from './cluster.js';

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  onRetry?: (error: ClusterError, attempt: number) => void;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function withRetry<T>(run: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const transient = error instanceof ClusterError && error.transient;
      if (!transient || attempt >= attempts) throw error;
      options.onRetry?.(error, attempt);
      await delay(base * 2 ** (attempt - 1));
    }
  }
}

/** The message to record for a failed call: the API server's message for ClusterErrors. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
