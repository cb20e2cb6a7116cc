/**
 * A Lua value as JSON, the way Argo CD turns what an action or discovery script returns into JSON (the
 * `layeh.com/gopher-json` encoder it uses):
 * - a table whose keys are exactly the numbers 1 … n is an array; any other key (or a gap) makes it an object, its
 *   number keys written as strings (`"1"`, `"2"`, …);
 * - an empty table is an empty array (`[]`) — the caller repairs that where the object had a map (Argo CD's
 *   cleanReturnedObj, in clean-returned-object.ts);
 * - nil is null; booleans, numbers (whole or not) and strings as they are;
 * - a function, a coroutine or userdata is an error ("cannot encode function to JSON"), a table nested in itself too
 *   ("cannot encode recursively nested tables to JSON"), as a NaN or an infinity is.
 */
import { fengari, type LuaState } from '../health-scripts/index.js';

const { lua, to_jsstring } = fengari;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class LuaJsonError extends Error {}

function keyText(L: LuaState, index: number): string {
  const type = lua.lua_type(L, index);
  if (type === lua.LUA_TNUMBER) return String(lua.lua_tonumber(L, index));
  if (type === lua.LUA_TSTRING) return to_jsstring(lua.lua_tostring(L, index)!);
  if (type === lua.LUA_TBOOLEAN) return String(lua.lua_toboolean(L, index));
  throw new LuaJsonError(`cannot encode a table key of type ${typeName(L, index)} to JSON`);
}

function typeName(L: LuaState, index: number): string {
  return to_jsstring(lua.lua_typename(L, lua.lua_type(L, index)));
}

/** The value at `index` (a negative index counts from the top) as JSON; throws LuaJsonError. */
export function readLuaJson(L: LuaState, index: number, visiting: Set<unknown> = new Set()): Json {
  const at = index < 0 ? lua.lua_gettop(L) + index + 1 : index;
  switch (lua.lua_type(L, at)) {
    case lua.LUA_TNIL:
      return null;
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, at);
    case lua.LUA_TNUMBER: {
      const n = lua.lua_tonumber(L, at);
      if (!Number.isFinite(n)) throw new LuaJsonError(`cannot encode the number ${n} to JSON`);
      return n;
    }
    case lua.LUA_TSTRING:
      return to_jsstring(lua.lua_tostring(L, at)!);
    case lua.LUA_TTABLE:
      return readTable(L, at, visiting);
    default:
      throw new LuaJsonError(`cannot encode ${typeName(L, at)} to JSON`);
  }
}

function readTable(L: LuaState, at: number, visiting: Set<unknown>): Json {
  const identity = lua.lua_topointer(L, at);
  if (visiting.has(identity)) throw new LuaJsonError('cannot encode recursively nested tables to JSON');
  visiting.add(identity);
  if (!lua.lua_checkstack(L, 4)) throw new LuaJsonError('table nested too deeply');
  const entries: [key: number | string, value: Json][] = [];
  let sequence = true;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, at) !== 0) {
    const value = readLuaJson(L, -1, visiting);
    if (lua.lua_type(L, -2) === lua.LUA_TNUMBER) {
      const n = lua.lua_tonumber(L, -2);
      if (!Number.isInteger(n) || n < 1) sequence = false;
      entries.push([n, value]);
    } else {
      sequence = false;
      entries.push([keyText(L, -2), value]);
    }
    lua.lua_pop(L, 1);
  }
  // fengari's iteration order is not gopher-lua's (array part in order, then the rest): decided on the whole set.
  let result: Json;
  if (sequence && entries.every(([key]) => (key as number) <= entries.length)) {
    const list: Json[] = new Array(entries.length);
    for (const [key, value] of entries) list[(key as number) - 1] = value;
    result = list;
  } else {
    result = Object.fromEntries(entries.map(([key, value]) => [String(key), value]));
  }
  visiting.delete(identity);
  return result;
}
