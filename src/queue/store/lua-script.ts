/**
 * Run a Lua script by SHA with a fallback to EVAL when Redis does not know it yet (after a restart or a
 * failover), so scripts survive Redis restarts without re-registration.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-connections.js';

export interface LuaScript {
  lua: string;
  sha: string;
}

/** Prepare a script (computes its SHA1 once). */
export function luaScript(lua: string): LuaScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/** EVALSHA, else EVAL on `NOSCRIPT`. Resolves with the script's reply. */
export async function runScript(
  redis: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return redis.eval(script.lua, keys.length, ...keys, ...args);
  }
}
