/**
 * Per-channel pacing shared by every process through Redis: Slack allows about one chat.postMessage per second per
 * channel (https://docs.slack.dev/apis/web-api/rate-limits, "Special"), whichever worker posts. Each post reserves
 * the channel's next free slot atomically (a Lua script on `<prefix>:pace:<channel>`, holding the time the
 * channel is next free, in ms of Redis' clock so workers on skewed hosts agree) and waits locally until its slot.
 * Two workers announcing to one channel thus post one second apart, not two in the same second.
 *
 * When Redis cannot be reached the reservation falls back to the process's own ChannelPacer (a notice is late
 * rather than lost); the error goes to `onError`.
 */

import type { RedisClient } from '../../queue/index.js';
import { luaScript, runScript } from '../../queue/index.js';
import { ChannelPacer } from './channel-pacer.js';

/** What a notice poster needs of a pacer: wait for the channel's next slot. */
export interface ChannelSlots {
  /** Claim the next slot of `channel` and wait for it; resolves when the post may be sent. */
  acquire(channel: string): Promise<void>;
}

export interface SharedChannelPacerOptions {
  redis: RedisClient;
  /** Key prefix (`<prefix>:pace:<channel>`). */
  prefix: string;
  /** Minimum spacing of posts to one channel, in ms (default 1000). */
  intervalMs?: number;
  /** Redis errors (the process's own pacer was used instead). */
  onError?(error: unknown): void;
}

/**
 * KEYS[1] = the channel's next-free time (ms, Redis clock); ARGV[1] = interval (ms).
 * Returns how long the caller waits for its slot, in ms. The key expires once the slot has passed.
 */
const RESERVE = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], slot + interval, 'PX', slot + interval - now + 1000)
return slot - now
`);

/** Create the pacer. */
export function createSharedChannelPacer(options: SharedChannelPacerOptions): ChannelSlots {
  const intervalMs = options.intervalMs ?? 1000;
  const local = new ChannelPacer(intervalMs);
  return {
    async acquire(channel) {
      let waitMs: number;
      try {
        const key = `${options.prefix}:pace:${channel}`;
        waitMs = Number(await runScript(options.redis, RESERVE, [key], [intervalMs]));
      } catch (error) {
        options.onError?.(error);
        return local.acquire(channel);
      }
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    },
  };
}
