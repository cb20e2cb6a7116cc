/**
 * Per-channel pacing shared by every process through Redis: Slack allows about one chat.postMessage per second per
 * channel (https://docs.slack.dev/apis/web-api/rate-limits, "Special"), whichever worker posts. Each post reserves
 * the channel's next free slot atomically (a Lua script on `<prefix>:pace:<channel>`, holding the time the
 * channel is next free, in ms of Redis' clock so workers on skewed hosts agree) and waits locally until its slot.
 * Two workers announcing to one channel thus post one second apart, not two in the same second. Sync headers go
 * first (RedisChannelPacer.acquireHeader): thread lines wait while a header waits for its slot.
 *
 * When Redis cannot be reached the reservation falls back to the process's own ChannelPacer (a notice is late
 * rather than lost); the error goes to `onError`.
 */

import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../queue/index.js';
import { luaScript, runScript } from '../queue/index.js';
import { ChannelPacer } from './channel-pacer.js';

export interface SharedChannelPacerOptions {
  redis: RedisClient;
  /** Key prefix (`<prefix>:pace:<channel>`). */
  prefix: string;
  /** Minimum spacing of posts to one channel, in ms (default 1000). */
  intervalMs?: number;
  /** Redis errors (the process's own pacer was used instead). */
  onError?(error: unknown): void;
}

/** Create the pacer (a RedisChannelPacer). */
export function createSharedChannelPacer(options: SharedChannelPacerOptions): RedisChannelPacer {
  return new RedisChannelPacer(options);
}

/**
 * KEYS[1] = the channel's next-free time, KEYS[2] = the channel's headers waiting (ZSET id → expiry, ms);
 * ARGV[1] = interval (ms), ARGV[2] = '1' for a thread line (yields to waiting headers), ARGV[3] = header id to
 * register, ARGV[4] = how long a registration lasts past its slot (ms).
 * Returns the wait for the reserved slot in ms, or -1: headers are waiting, a thread line asks again later.
 */
const RESERVE_PRIORITY = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
if ARGV[2] == '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) > 0 then return -1 end
end
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], slot + interval, 'PX', slot + interval - now + 1000)
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[2], slot + tonumber(ARGV[4]), ARGV[3])
  redis.call('PEXPIRE', KEYS[2], slot - now + tonumber(ARGV[4]))
end
return slot - now
`);

/** KEYS[1] = the channel's next-free time; ARGV[1] = ms it stays closed (Slack's Retry-After). */
const BLOCK = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ = now + tonumber(ARGV[1])
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ > cur then redis.call('SET', KEYS[1], until_, 'PX', tonumber(ARGV[1]) + 1000) end
return 1
`);

/** How long a thread line yields to waiting headers at most before it takes a slot anyway (ms). */
const MAX_YIELD_MS = 120_000;
/** A header's registration outlives its slot by this much (ms): a bot that died waiting does not block lines. */
const HEADER_GRACE_MS = 30_000;

/**
 * A ChannelPacer whose slots are shared by every process through Redis (see the module comment), for everything a
 * process posts — thread lines, notices and sync headers — so the bots and workers posting to one channel take
 * turns instead of earning 429s. A sync's header goes first: while a header waits for its slot, thread lines wait
 * (at most MAX_YIELD_MS), so a burst of `/sync` commands gets its headers posted at the channel's pace while the
 * running syncs' threads gather their lines (coalesced into fewer posts). A 429 closes the channel for every
 * process (Retry-After). Redis unreachable: the process paces on its own (ChannelPacer), errors to `onError`.
 */
export class RedisChannelPacer extends ChannelPacer {
  private readonly options: SharedChannelPacerOptions;

  constructor(options: SharedChannelPacerOptions) {
    super(options.intervalMs ?? 1000);
    this.options = options;
  }

  override acquire(channel: string): Promise<void> {
    return this.reserve(channel, 'line');
  }

  override acquireHeader(channel: string): Promise<void> {
    return this.reserve(channel, 'header');
  }

  override block(channel: string, ms: number): void {
    super.block(channel, ms);
    runScript(this.options.redis, BLOCK, [this.key(channel)], [ms]).catch((error: unknown) =>
      this.options.onError?.(error),
    );
  }

  private async reserve(channel: string, kind: 'line' | 'header'): Promise<void> {
    const id = kind === 'header' ? randomUUID() : '';
    const keys = [this.key(channel), `${this.key(channel)}:headers`];
    const yieldUntil = Date.now() + MAX_YIELD_MS;
    for (;;) {
      let waitMs: number;
      try {
        const line = kind === 'line' && Date.now() < yieldUntil ? '1' : '0';
        const args = [this.intervalMs, line, id, HEADER_GRACE_MS];
        waitMs = Number(await runScript(this.options.redis, RESERVE_PRIORITY, keys, args));
      } catch (error) {
        this.options.onError?.(error);
        return super.acquire(channel);
      }
      if (waitMs < 0) {
        // Headers are waiting: this line waits one slot and asks again (its reporter keeps gathering lines).
        this.nextFreeAt.set(channel, Date.now() + this.intervalMs);
        await sleep(this.intervalMs);
        continue;
      }
      this.nextFreeAt.set(channel, Math.max(this.nextFreeAt.get(channel) ?? 0, Date.now() + waitMs));
      if (waitMs > 0) await sleep(waitMs);
      if (id) void this.release(keys[1]!, id);
      return;
    }
  }

  /** The header's slot has come: lines may go again once no other header waits. */
  private async release(key: string, id: string): Promise<void> {
    await this.options.redis.zrem(key, id).catch((error: unknown) => this.options.onError?.(error));
  }

  private key(channel: string): string {
    return `${this.options.prefix}:pace:${channel}`;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
