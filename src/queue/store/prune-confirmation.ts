/**
 * Pruning confirmations in Redis (key `SyncKeys.pruneConfirmed`): what `/sync confirm-prune <app>` writes and what
 * a worker's engine reads while a wave waits for `Prune=confirm` resources (spec §4.7 step 2).
 */

import type { Initiator } from '../sync-reporter.js';
import type { RedisClient } from './redis-connections.js';
import type { SyncKeys } from './redis-keys.js';

/** Record a confirmation by `by` now; resolves with its ISO-8601 time. */
export async function confirmPrune(
  redis: RedisClient,
  keys: SyncKeys,
  application: string,
  by: Initiator,
): Promise<string> {
  const at = new Date().toISOString();
  await redis.set(keys.pruneConfirmed(application), JSON.stringify({ at, by }));
  return at;
}

/** The time of the application's last confirmation, or undefined (none, or an unreadable value). */
export async function pruneConfirmedAt(
  redis: RedisClient,
  keys: SyncKeys,
  application: string,
): Promise<string | undefined> {
  const raw = await redis.get(keys.pruneConfirmed(application));
  if (raw === null) return undefined;
  try {
    const at = (JSON.parse(raw) as { at?: unknown }).at;
    return typeof at === 'string' ? at : undefined;
  } catch {
    return undefined;
  }
}
