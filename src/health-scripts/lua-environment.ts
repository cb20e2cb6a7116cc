/**
 * The libraries a health script sees and the fresh environment every call gets (the isolation run-health-script.ts
 * describes): the pristine globals with base, table, the safe os and `require` (with `openLibs` also string, math
 * and coroutine), the environments' metatable that copies a library into a call the first time it reads it, and
 * the string metatable that reads the running call's `string`.
 */
import { fengari, type LuaFunction, type LuaState } from './fengari.js';
import { luaString } from './push-value.js';
import { pushSafeOs } from './safe-os.js';

const { lua, lauxlib, lualib, to_luastring, to_jsstring } = fengari;

const noop: LuaFunction = () => 0;

/**
 * A JavaScript error thrown inside fengari (the byte budget's refusal, a RangeError of a huge allocation) becomes
 * a Lua error with its message, so the state unwinds as for any Lua error and stays usable.
 */
const nativeError: LuaFunction = (L) => {
  const error = lua.lua_touserdata(L, 1);
  lua.lua_pushstring(L, to_luastring(error instanceof Error ? error.message : String(error)));
  return 1;
};

const tableGetn: LuaFunction = (L) => {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lua.lua_pushnumber(L, lua.lua_rawlen(L, 1));
  return 1;
};

/** Registry key of the running call's environment (`require` reads its libraries from there). */
export const CURRENT_ENV = luaString('wavesync.health.env');
const LIBRARY_NAMES = ['_G', 'table', 'os', 'string', 'math', 'coroutine'];

const requireLoaded: LuaFunction = (L) => {
  const name = to_jsstring(lauxlib.luaL_checkstring(L, 1));
  lua.lua_getfield(L, lua.LUA_REGISTRYINDEX, CURRENT_ENV);
  if (LIBRARY_NAMES.includes(name) && lua.lua_getfield(L, -1, luaString(name)) === lua.LUA_TTABLE) return 1;
  return lauxlib.luaL_error(L, to_luastring(`module '${name}' not found`));
};

/** Registry keys: the environments' shared metatable, and the set of library names copied per call. */
const ENV_META = luaString('wavesync.health.envmeta');
const LIBRARIES = luaString('wavesync.health.libraries');

/** Pushes a shallow copy of the table at the top, replacing it. */
function replaceWithCopy(L: LuaState): void {
  lua.lua_createtable(L, 0, 32);
  lua.lua_pushnil(L);
  while (lua.lua_next(L, -3) !== 0) {
    lua.lua_pushvalue(L, -2);
    lua.lua_insert(L, -2);
    lua.lua_rawset(L, -4);
  }
  lua.lua_remove(L, -2);
}

/**
 * `__index` of every call's environment (arguments: the environment, the key). A library (`string`, `table`, …)
 * is copied from the pristine one into the environment the first time the call reads it; anything else is the
 * pristine global (a function, or nil), remembered in the environment.
 */
const environmentIndex: LuaFunction = (L) => {
  lua.lua_getfield(L, lua.LUA_REGISTRYINDEX, LIBRARIES);
  lua.lua_pushvalue(L, 2);
  const isLibrary = lua.lua_rawget(L, -2) !== lua.LUA_TNIL;
  lua.lua_pop(L, 2);
  lua.lua_pushglobaltable(L);
  lua.lua_pushvalue(L, 2);
  const type = lua.lua_rawget(L, -2);
  if (type === lua.LUA_TNIL) return 1;
  if (isLibrary && type === lua.LUA_TTABLE) replaceWithCopy(L);
  lua.lua_pushvalue(L, 2);
  lua.lua_pushvalue(L, -2);
  lua.lua_rawset(L, 1);
  return 1;
};

/** `__index` of strings: the running call's `string` copy (so `("x"):f()` sees what the script put there). */
const stringMethod: LuaFunction = (L) => {
  if (lua.lua_getfield(L, lua.LUA_REGISTRYINDEX, CURRENT_ENV) === lua.LUA_TTABLE) {
    lua.lua_getfield(L, -1, luaString('string'));
  } else {
    lua.lua_getglobal(L, luaString('string'));
  }
  if (lua.lua_type(L, -1) !== lua.LUA_TTABLE) return 0;
  lua.lua_pushvalue(L, 2);
  lua.lua_rawget(L, -2);
  return 1;
};

/** Opens the libraries into the state's (pristine) globals and sets up the environments' metatable. */
export function openLibraries(L: LuaState, openLibs: boolean): void {
  lua.lua_atnativeerror(L, nativeError);
  lauxlib.luaL_requiref(L, luaString('_G'), lualib.luaopen_base, 1);
  lua.lua_pop(L, 1);
  for (const name of ['dofile', 'loadfile', 'load']) {
    lua.lua_pushnil(L);
    lua.lua_setglobal(L, luaString(name));
  }
  lua.lua_pushjsfunction(L, noop);
  lua.lua_setglobal(L, luaString('print'));
  lua.lua_pushjsfunction(L, requireLoaded);
  lua.lua_setglobal(L, luaString('require'));
  lauxlib.luaL_requiref(L, luaString('table'), lualib.luaopen_table, 1);
  lua.lua_pushjsfunction(L, tableGetn);
  lua.lua_setfield(L, -2, luaString('getn'));
  lua.lua_getfield(L, -1, luaString('unpack'));
  lua.lua_setglobal(L, luaString('unpack'));
  lua.lua_pop(L, 1);
  const libraries = ['table', 'os'];
  if (openLibs) {
    for (const [name, open] of [
      ['string', lualib.luaopen_string],
      ['math', lualib.luaopen_math],
      ['coroutine', lualib.luaopen_coroutine],
    ] as const) {
      lauxlib.luaL_requiref(L, luaString(name), open, 1);
      lua.lua_pop(L, 1);
      libraries.push(name);
    }
    // The string metatable: methods from the running call's `string`; protected (getmetatable("") is false).
    lua.lua_pushstring(L, luaString(''));
    lua.lua_getmetatable(L, -1);
    lua.lua_pushjsfunction(L, stringMethod);
    lua.lua_setfield(L, -2, luaString('__index'));
    lua.lua_pushboolean(L, false);
    lua.lua_setfield(L, -2, luaString('__metatable'));
    lua.lua_pop(L, 2);
  }
  pushSafeOs(L, openLibs);
  lua.lua_setglobal(L, luaString('os'));
  lua.lua_createtable(L, 0, libraries.length);
  for (const name of libraries) {
    lua.lua_pushboolean(L, true);
    lua.lua_setfield(L, -2, luaString(name));
  }
  lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, LIBRARIES);
  lua.lua_createtable(L, 0, 2);
  lua.lua_pushjsfunction(L, environmentIndex);
  lua.lua_setfield(L, -2, luaString('__index'));
  lua.lua_pushboolean(L, false);
  lua.lua_setfield(L, -2, luaString('__metatable'));
  lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, ENV_META);
}

/** Pushes a new environment: `_G` = itself, everything else reached through environmentIndex. */
export function pushFreshEnvironment(L: LuaState): void {
  lua.lua_createtable(L, 0, 8);
  lua.lua_getfield(L, lua.LUA_REGISTRYINDEX, ENV_META);
  lua.lua_setmetatable(L, -2);
  lua.lua_pushvalue(L, -1);
  lua.lua_setfield(L, -2, luaString('_G'));
}
