/**
 * The RevisionStore in Redis, shared by every bot replica of one installation (keys under the queue prefix, as
 * drift detection's): `<prefix>:revisions:seen:<application>` holds the revision last seen (SET … GET: atomic, so
 * of two replicas resolving the same move only one gets the old value back), `<prefix>:revisions:claim:<key>` the
 * one-off claims (SET NX PX), `<prefix>:revisions:lease` the poll interval's lease, and
 * `<prefix>:revisions:click:<key>` the first clicker of a "main moved" message's Sync button.
 */
import {
  type ClickClaims,
  luaScript,
  type RedisClient,
  redisClickClaims,
  runScript,
} from '../queue/index.js';
import type { RevisionStore } from './revision-watcher.js';

/** SET KEYS[1] to ARGV[2] (DEL when ARGV[2] is '') if it still holds ARGV[1]. */
const RESTORE = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
`);

export function redisRevisionStore(redis: RedisClient, prefix: string): RevisionStore {
  const seen = (application: string) => `${prefix}:revisions:seen:${application}`;
  const claim = (key: string) => `${prefix}:revisions:claim:${key}`;
  return {
    async swap(application, revision) {
      const before = await redis.set(seen(application), revision, 'GET');
      return before ?? undefined;
    },
    async restore(application, revision, previous) {
      await runScript(redis, RESTORE, [seen(application)], [revision, previous ?? '']);
    },
    claim: async (key, ttlMs) => (await redis.set(claim(key), '1', 'PX', ttlMs, 'NX')) === 'OK',
    async release(key) {
      await redis.del(claim(key));
    },
  };
}

/** The poll lease: SET NX PX on `<prefix>:revisions:lease`, so one replica polls per interval. */
export function redisRevisionLease(redis: RedisClient, prefix: string, holder: string) {
  return async (ttlMs: number) =>
    (await redis.set(`${prefix}:revisions:lease`, holder, 'PX', ttlMs, 'NX')) === 'OK';
}

/** The newest "main moved" message of an Application: its Sync button must name it (an older one is stale). */
interface RevisionNoticeRef {
  channel: string;
  ts: string;
  /** The revision the message offers (a commit SHA or chart version). */
  revision: string;
}

export interface RevisionNoticeRefs {
  save(application: string, ref: RevisionNoticeRef): Promise<void>;
  get(application: string): Promise<RevisionNoticeRef | undefined>;
}

/** RevisionNoticeRefs in Redis under `<prefix>:revisions:notice:<application>`, kept 30 days. */
export function redisRevisionNoticeRefs(redis: RedisClient, prefix: string): RevisionNoticeRefs {
  const key = (application: string) => `${prefix}:revisions:notice:${application}`;
  return {
    async save(application, ref) {
      await redis.set(key(application), JSON.stringify(ref), 'PX', 30 * 24 * 3_600_000);
    },
    async get(application) {
      const raw = await redis.get(key(application));
      return raw ? (JSON.parse(raw) as RevisionNoticeRef) : undefined;
    },
  };
}

/** Webhook delivery ids seen, under `<prefix>:revisions:delivery:<provider>:<id>` (SET NX PX). */
export function redisDeliveryLog(redis: RedisClient, prefix: string) {
  return {
    firstTime: async (id: string, ttlMs: number) =>
      (await redis.set(`${prefix}:revisions:delivery:${id}`, '1', 'PX', ttlMs, 'NX')) === 'OK',
  };
}

/** How long the claim of a "main moved" message's Sync button is kept (ms): as long as such a message is usually clicked. */
const REVISION_NOTICE_CLAIM_TTL_MS = 7 * 24 * 3_600_000;

/**
 * One sync per "main moved" message: its Sync button's first click claims `revision:<notice>` under
 * `<prefix>:revisions:click` (SET NX PX, value the clicker as JSON), shared by every bot replica; later clicks
 * learn who claimed it and queue nothing.
 */
export function redisRevisionNoticeClaims(redis: RedisClient, prefix: string): ClickClaims {
  return redisClickClaims(redis, `${prefix}:revisions:click`, REVISION_NOTICE_CLAIM_TTL_MS);
}
