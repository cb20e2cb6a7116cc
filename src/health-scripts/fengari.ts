/**
 * fengari — the Lua 5.3 VM written in JavaScript (npm `fengari`, MIT), loaded so that it formats numbers as
 * gopher-lua (Argo CD's Lua) does: a whole float prints without `.0` (`tostring(2.0)` is `2`, as every number is a
 * float64 in gopher-lua). fengari reads that switch (`LUA_COMPAT_FLOATSTRING`) from its `luaconf` module when its
 * other modules load, so the switch is set on that module before anything else of fengari is required; the
 * health-script VM checks at its first use that it took effect. fengari ships no types: the few functions used
 * are typed here.
 */
import { createRequire } from 'node:module';

/** A Lua state (opaque). */
export type LuaState = { readonly __luaState: unique symbol };
/** A Lua string: fengari's UTF-8 byte array. */
export type LuaString = Uint8Array;
/** A JavaScript function callable from Lua: arguments on the state's stack, returns the number of results. */
export type LuaFunction = (L: LuaState) => number;

interface LuaApi {
  LUA_OK: number;
  LUA_MULTRET: number;
  LUA_MASKCOUNT: number;
  LUA_TNIL: number;
  LUA_TBOOLEAN: number;
  LUA_TNUMBER: number;
  LUA_TSTRING: number;
  LUA_TTABLE: number;
  LUA_TFUNCTION: number;
  LUA_REGISTRYINDEX: number;
  lua_atnativeerror(L: LuaState, handler: LuaFunction): LuaFunction | null;
  lua_checkstack(L: LuaState, n: number): boolean;
  lua_close(L: LuaState): void;
  lua_createtable(L: LuaState, narr: number, nrec: number): void;
  lua_getfield(L: LuaState, index: number, key: LuaString): number;
  lua_getmetatable(L: LuaState, index: number): boolean;
  lua_insert(L: LuaState, index: number): void;
  lua_pushglobaltable(L: LuaState): void;
  lua_rawgeti(L: LuaState, index: number, i: number): number;
  lua_remove(L: LuaState, index: number): void;
  lua_settop(L: LuaState, index: number): void;
  lua_setmetatable(L: LuaState, index: number): void;
  lua_gettop(L: LuaState): number;
  lua_isinteger(L: LuaState, index: number): boolean;
  lua_next(L: LuaState, index: number): number;
  lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
  lua_pop(L: LuaState, n: number): void;
  lua_pushboolean(L: LuaState, b: boolean): void;
  lua_pushjsfunction(L: LuaState, f: LuaFunction): void;
  lua_pushnil(L: LuaState): void;
  lua_pushnumber(L: LuaState, n: number): void;
  lua_pushstring(L: LuaState, s: LuaString): void;
  lua_pushvalue(L: LuaState, index: number): void;
  lua_rawget(L: LuaState, index: number): number;
  lua_rawlen(L: LuaState, index: number): number;
  lua_typename(L: LuaState, type: number): LuaString;
  lua_rawseti(L: LuaState, index: number, i: number): void;
  lua_rawset(L: LuaState, index: number): void;
  lua_setfield(L: LuaState, index: number, key: LuaString): void;
  lua_setglobal(L: LuaState, name: LuaString): void;
  lua_getglobal(L: LuaState, name: LuaString): number;
  lua_sethook(L: LuaState, hook: ((L: LuaState) => void) | null, mask: number, count: number): void;
  lua_toboolean(L: LuaState, index: number): boolean;
  lua_touserdata(L: LuaState, index: number): unknown;
  lua_tonumber(L: LuaState, index: number): number;
  lua_tostring(L: LuaState, index: number): LuaString | null;
  /** The identity of a table or function (fengari gives the object itself). */
  lua_topointer(L: LuaState, index: number): unknown;
  lua_type(L: LuaState, index: number): number;
}

interface LuaAuxLib {
  luaL_newstate(): LuaState;
  luaL_loadbufferx(L: LuaState, buff: LuaString, size: number, name: LuaString, mode: LuaString): number;
  luaL_requiref(L: LuaState, name: LuaString, open: LuaFunction, global: number): void;
  luaL_error(L: LuaState, message: LuaString): never;
  luaL_checkstring(L: LuaState, arg: number): LuaString;
  luaL_optinteger(L: LuaState, arg: number, def: number): number;
  luaL_checknumber(L: LuaState, arg: number): number;
  luaL_checktype(L: LuaState, arg: number, type: number): void;
  luaL_ref(L: LuaState, table: number): number;
  luaL_unref(L: LuaState, table: number, ref: number): void;
}

interface LuaLib {
  luaopen_base: LuaFunction;
  luaopen_table: LuaFunction;
  luaopen_string: LuaFunction;
  luaopen_math: LuaFunction;
  luaopen_coroutine: LuaFunction;
}

export interface Fengari {
  lua: LuaApi;
  lauxlib: LuaAuxLib;
  lualib: LuaLib;
  to_luastring(s: string): LuaString;
  to_jsstring(s: LuaString): string;
}

const require = createRequire(import.meta.url);

function loadFengari(): Fengari {
  // defs.js first: it loads luaconf.js (the two require each other; loading luaconf.js first breaks the cycle's order)
  require('fengari/src/defs.js');
  const luaconf = require('fengari/src/luaconf.js') as { LUA_COMPAT_FLOATSTRING: boolean };
  luaconf.LUA_COMPAT_FLOATSTRING = true;
  return require('fengari') as Fengari;
}

export const fengari: Fengari = loadFengari();
