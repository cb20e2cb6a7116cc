/**
 * The PromotionStore in Redis, shared by the worker (which records each stage's sync as it ends) and every bot
 * replica (which verifies, promotes and shows pipelines). Keys under `<prefix>:promotion:` (`prefix` =
 * WAVESYNC_QUEUE_PREFIX, a `{braced}` one on Redis Cluster keeps them in one slot for the script):
 *
 * - `stage:<app>`    STRING, JSON StageSync: the stage's current sync and its verification;
 * - `verified:<app>` LIST of JSON VerifiedRevision, newest first, the last VERIFIED_KEPT; it lives VERIFIED_TTL_MS
 *   after its last write (a duration, PEXPIRE), so a pipeline nobody uses any more leaves nothing behind;
 * - `pin:<app>`      STRING, JSON Pin: kept until the next promotion or a person's sync clears it (no expiry).
 */
import { luaScript, type RedisClient, runScript } from '../queue/index.js';
import type { Pin, PromotionStore, StageSync, VerifiedRevision } from './stage-records.js';

/** How many verified revisions are kept per stage. */
const VERIFIED_KEPT = 50;
/** How long a stage's verified revisions are kept after the last one was added: 90 days. */
const VERIFIED_TTL_MS = 90 * 24 * 3600 * 1000;

/**
 * Compare-and-set of a stage's current sync: write ARGV[2] ('' deletes) only while KEYS[1] still holds ARGV[1]
 * ('' = absent); with ARGV[3], also push that verified record onto KEYS[2], keep ARGV[4] of them, and let the list
 * live ARGV[5] ms. 1 when written, else 0.
 */
const UPDATE_STAGE = luaScript(`
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
if ARGV[3] ~= '' then
  redis.call('LPUSH', KEYS[2], ARGV[3])
  redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[4]) - 1)
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[5]))
end
return 1
`);

const MAX_ATTEMPTS = 5;

export function promotionKeys(prefix: string) {
  const base = `${prefix}:promotion`;
  return {
    stage: (app: string) => `${base}:stage:${app}`,
    verified: (app: string) => `${base}:verified:${app}`,
    pin: (app: string) => `${base}:pin:${app}`,
    /** The verifier's interval lease, held by one bot replica at a time. */
    lease: `${base}:lease`,
  };
}

/**
 * The verifier's lease (`VerifierDeps.lease`) in Redis: `holder` takes it for `ttlMs` when no replica holds it
 * (SET NX PX); true when taken.
 */
export function redisVerifierLease(
  redis: RedisClient,
  prefix: string,
  holder: string,
): (ttlMs: number) => Promise<boolean> {
  const key = promotionKeys(prefix).lease;
  return async (ttlMs) => (await redis.set(key, holder, 'PX', ttlMs, 'NX')) === 'OK';
}

export function redisPromotionStore(redis: RedisClient, prefix: string): PromotionStore {
  const keys = promotionKeys(prefix);
  const parse = <T>(raw: string | null): T | undefined => (raw ? (JSON.parse(raw) as T) : undefined);
  return {
    stage: async (app) => parse<StageSync>(await redis.get(keys.stage(app))),
    async updateStage(app, update) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const raw = (await redis.get(keys.stage(app))) ?? '';
        const current = parse<StageSync>(raw);
        const next = update(current);
        const newlyVerified = next?.status === 'verified' && !sameVerification(current, next);
        const record = newlyVerified ? JSON.stringify(verifiedRecordOf(app, next)) : '';
        const written = await runScript(
          redis,
          UPDATE_STAGE,
          [keys.stage(app), keys.verified(app)],
          [raw, next ? JSON.stringify(next) : '', record, String(VERIFIED_KEPT), String(VERIFIED_TTL_MS)],
        );
        if (written === 1) return next;
      }
      throw new Error(`the promotion record of ${app} kept changing; try again`);
    },
    async verified(app) {
      return (await redis.lrange(keys.verified(app), 0, -1)).map(
        (raw) => JSON.parse(raw) as VerifiedRevision,
      );
    },
    pin: async (app) => parse<Pin>(await redis.get(keys.pin(app))),
    async setPin(app, pin) {
      await redis.set(keys.pin(app), JSON.stringify(pin));
    },
    async clearPin(app) {
      await redis.del(keys.pin(app));
    },
  };
}

/** The same sync already verified (a repeated update must not record it twice). */
function sameVerification(current: StageSync | undefined, next: StageSync): boolean {
  return current?.status === 'verified' && current.jobId === next.jobId;
}

function verifiedRecordOf(stage: string, s: StageSync): VerifiedRevision {
  return {
    revision: s.revision,
    stage,
    jobId: s.jobId,
    syncedAt: s.syncedAt,
    verifiedAt: s.verifiedAt ?? s.checkedAt,
    healthyForMs: s.healthyForMs ?? 0,
    ...(s.hook ? { hook: s.hook } : {}),
  };
}
