/**
 * The per-job event stream (`…:ws:events:<id>`): every SyncEvent the job's reporter received, in order, then
 * one `end` entry with the job's outcome. Lets a terminal (`wavesync sync <app> --queue`) follow a job that a
 * worker elsewhere runs.
 */

import type { SyncEvent } from '../../domain/index.js';
import type { JobState } from '../sync-queue-client.js';
import type { RedisClient } from './redis-connections.js';
import type { SyncKeys } from './redis-keys.js';

export type JobStreamEntry =
  | { id: string; kind: 'event'; event: SyncEvent }
  | { id: string; kind: 'end'; status: JobState; message: string };

/**
 * Read entries after stream id `afterId` ('0' = from the start), blocking up to `blockMs` for new ones.
 * `redis` must be a connection that may block (not the producer's).
 */
export async function readJobEvents(
  redis: RedisClient,
  keys: SyncKeys,
  jobId: string,
  afterId: string,
  blockMs: number,
): Promise<JobStreamEntry[]> {
  const reply = await redis.xread('COUNT', 100, 'BLOCK', blockMs, 'STREAMS', keys.events(jobId), afterId);
  const entries = reply?.[0]?.[1] ?? [];
  return entries.flatMap(([id, fields]): JobStreamEntry[] => {
    const [field, value] = fields;
    if (field === 'event' && value) return [{ id, kind: 'event', event: JSON.parse(value) as SyncEvent }];
    if (field === 'end' && value) {
      const end = JSON.parse(value) as { status: JobState; message: string };
      return [{ id, kind: 'end', status: end.status, message: end.message }];
    }
    return [];
  });
}
