/**
 * Lua values from JavaScript ones: a live object pushed as Argo CD's decodeValue hands it to a script (health
 * scripts and resource actions), and the Lua strings of the keys and values seen often, kept bounded.
 */
import { fengari, type LuaState, type LuaString } from './fengari.js';

const { lua, to_luastring } = fengari;

/** Lua strings for the keys and values seen often (field names, condition types), bounded. */
const stringCache = new Map<string, LuaString>();
const STRING_CACHE_LIMIT = 20_000;

export function luaString(s: string): LuaString {
  let cached = stringCache.get(s);
  if (cached === undefined) {
    cached = to_luastring(s);
    if (s.length <= 64 && stringCache.size < STRING_CACHE_LIMIT) stringCache.set(s, cached);
  }
  return cached;
}

/** Pushes a JSON value as Argo CD's decodeValue does: nulls are left out, arrays compacted. */
export function pushValue(L: LuaState, value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      lua.lua_pushstring(L, luaString(value));
      return true;
    case 'number':
      lua.lua_pushnumber(L, value);
      return true;
    case 'boolean':
      lua.lua_pushboolean(L, value);
      return true;
    case 'object': {
      if (value === null) return false;
      if (!lua.lua_checkstack(L, 3)) throw new Error('object nested too deeply');
      if (Array.isArray(value)) {
        lua.lua_createtable(L, value.length, 0);
        let i = 0;
        for (const item of value) if (pushValue(L, item)) lua.lua_rawseti(L, -2, ++i);
        return true;
      }
      const entries = Object.entries(value);
      lua.lua_createtable(L, 0, entries.length);
      for (const [key, item] of entries) {
        lua.lua_pushstring(L, luaString(key));
        if (pushValue(L, item)) lua.lua_rawset(L, -3);
        else lua.lua_pop(L, 1);
      }
      return true;
    }
    default:
      return false;
  }
}
