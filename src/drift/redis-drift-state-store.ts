/**
 * A DriftStateStore in Redis, shared by every bot replica of one installation (keys under
 * `<prefix>:drift:state:<application>`, `prefix` = WAVESYNC_QUEUE_PREFIX, as the queue and approvals use).
 * A transition is a compare-and-set: the new state is written only if the stored state is still the one the
 * transition was computed from (one Lua script, atomic in Redis); otherwise the transition is recomputed on the
 * fresh state. So when two replicas tick at once, one stores "episode started, notify" and the other then sees
 * the episode already running and does nothing.
 */

import type { RedisClient } from '../queue/index.js';
import {
  type ClickClaims,
  type Clicker,
  luaScript,
  memoryClickClaims,
  redisClickClaims,
  runScript,
} from '../queue/index.js';
import type { ResourceDifference } from './compare-application.js';
import type { DriftStateStore } from './drift-detector.js';
import type { DriftAction, DriftState } from './drift-episodes.js';

/** SET KEYS[1] ARGV[2] when GET KEYS[1] equals ARGV[1] ('' = absent); 1 when written, else 0. */
const COMPARE_AND_SET = luaScript(`
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`);

/** How many times a transition is recomputed after losing a race before giving up. */
const MAX_ATTEMPTS = 5;

/** Key of an Application's drift episode state. */
function driftStateKey(prefix: string, application: string): string {
  return `${prefix}:drift:state:${application}`;
}

/**
 * The Redis store. `transition` rejects with an Error when it lost the race MAX_ATTEMPTS times in a row (the
 * detector logs it and tries again next tick).
 */
export function redisDriftStateStore(redis: RedisClient, prefix: string): DriftStateStore {
  const read = async (application: string) => {
    const raw = await redis.get(driftStateKey(prefix, application));
    return { raw: raw ?? '', state: raw ? (JSON.parse(raw) as DriftState) : undefined };
  };
  return {
    get: async (application) => (await read(application)).state,
    async transition(application, transition): Promise<DriftAction> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const { raw, state } = await read(application);
        const next = transition(state);
        const written = await runScript(
          redis,
          COMPARE_AND_SET,
          [driftStateKey(prefix, application)],
          [raw, JSON.stringify(next.state)],
        );
        if (written === 1) return next.action;
      }
      throw new Error(`drift state of ${application} kept changing; will retry next interval`);
    },
  };
}

/** A posted drift notice: where it is, and what it said (so it can be edited when the drift resolves). */
interface DriftNoticeRef {
  channel: string;
  ts: string;
  differences: ResourceDifference[];
}

/** The notice of an Application's current drift episode, kept until the episode ends. */
export interface DriftNoticeRefs {
  save(application: string, ref: DriftNoticeRef): Promise<void>;
  /** The saved notice, left in place: the open notice a Sync click must name. */
  get(application: string): Promise<DriftNoticeRef | undefined>;
  /** The saved notice, removed (so only one process edits it). */
  take(application: string): Promise<DriftNoticeRef | undefined>;
}

/** DriftNoticeRefs in Redis under `<prefix>:drift:notice:<application>` (GETDEL: Redis 6.2+). */
export function redisDriftNoticeRefs(redis: RedisClient, prefix: string): DriftNoticeRefs {
  const key = (application: string) => `${prefix}:drift:notice:${application}`;
  return {
    async save(application, ref) {
      await redis.set(key(application), JSON.stringify(ref));
    },
    async get(application) {
      const raw = await redis.get(key(application));
      return raw ? (JSON.parse(raw) as DriftNoticeRef) : undefined;
    },
    async take(application) {
      const raw = await redis.getdel(key(application));
      return raw ? (JSON.parse(raw) as DriftNoticeRef) : undefined;
    },
  };
}

/**
 * The interval lease of drift detection: SET NX PX on `<prefix>:drift:lease`, so one bot replica compares per
 * interval (the others skip it). Resolves true when this caller took it for `ttlMs` milliseconds.
 */
export function redisDriftLease(
  redis: RedisClient,
  prefix: string,
  holder: string,
): (ttlMs: number) => Promise<boolean> {
  return async (ttlMs) => (await redis.set(`${prefix}:drift:lease`, holder, 'PX', ttlMs, 'NX')) === 'OK';
}

/** Who clicked a drift notice's Sync button (the Slack user id and name the queue records as initiator). */
export type DriftNoticeClicker = Clicker;

/**
 * One sync per drift notice: the first click on a notice's Sync button claims the notice, by anyone, on any bot
 * replica; later clicks learn who claimed it and queue nothing. `notice` is an opaque key of the notice (its
 * channel and message ts, see requestKeyOfDriftNotice).
 */
export type DriftNoticeClaims = ClickClaims;

/** How long a notice claim is kept (ms): longer than a drift notice is usually clickable. */
const DRIFT_NOTICE_CLAIM_TTL_MS = 7 * 24 * 3_600_000;

/**
 * DriftNoticeClaims in Redis under `<prefix>:drift:click:<notice>` (SET NX PX, value the clicker as JSON), shared
 * by every bot replica. Rejects when Redis is unreachable.
 */
export function redisDriftNoticeClaims(
  redis: RedisClient,
  prefix: string,
  ttlMs = DRIFT_NOTICE_CLAIM_TTL_MS,
): DriftNoticeClaims {
  return redisClickClaims(redis, `${prefix}:drift:click`, ttlMs);
}

/** DriftNoticeClaims in this process only (a single bot process without Redis, and unit tests). */
export const memoryDriftNoticeClaims = memoryClickClaims;

/**
 * Take or renew KEYS[1] for holder ARGV[1] for ARGV[2] ms: 1 when it is (now) ours, 0 when another holder has it.
 * PX is a duration, never a calendar time.
 */
const CLAIM = luaScript(`
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** How long a replica keeps an Application's change-driven checks after its last one (ms). */
const DRIFT_CHANGE_CLAIM_TTL_MS = 5_000;

/**
 * The change-driven checks' claim: `<prefix>:drift:change:<application>` (SET PX when absent or already ours),
 * so of several bot replicas, which all see the same watch events, one compares an Application per change burst.
 * The replica holding the claim renews it with each check, so a burst's later changes stay with it; another
 * replica takes over `ttlMs` after its last check. Resolves true when this replica compares.
 */
export function redisDriftChangeClaim(
  redis: RedisClient,
  prefix: string,
  holder: string,
  ttlMs = DRIFT_CHANGE_CLAIM_TTL_MS,
): (application: string) => Promise<boolean> {
  return async (application) =>
    (await runScript(redis, CLAIM, [`${prefix}:drift:change:${application}`], [holder, String(ttlMs)])) === 1;
}
