/**
 * Runs one resource-action Lua script (a `discovery.lua` or an `action.lua`) the way Argo CD does (argo-cd
 * `util/lua/lua.go`, runLua): a fresh Lua state for every call, closed afterwards, so nothing one script does is
 * seen by another; a time limit (Argo CD: 1 s), checked every 1,000 VM instructions and then on every one, so a
 * `pcall` cannot swallow it; the globals `obj` (the live object, decoded as for health scripts: JSON numbers are
 * floats, nulls left out) and, for an action, `actionParams` (parameter name → string value).
 *
 * Libraries: base (without `load`, `loadfile`, `dofile`; `print` prints nothing), table (with Lua 5.1's `table.getn`
 * and global `unpack`), Argo CD's safe `os` (only time and date; health-scripts/safe-os.ts) and a `require` that
 * hands out only these. With `openLibs` also string, math and coroutine: Argo CD runs discovery with the standard
 * libraries open and actions without (its API server's VM never sets UseOpenLibs for actions). Never io, debug or a
 * package searcher.
 *
 * The script's first return value is read as JSON (lua-json.ts). Errors (a Lua error, the time limit, a result that
 * cannot be encoded) are thrown as ActionScriptError with the message Argo CD would give: `error("x", 0)` gives `x`.
 */
import { fengari, type LuaState, pushSafeOs, pushValue } from '../health-scripts/index.js';
import { type Json, LuaJsonError, readLuaJson } from './lua-json.js';

const { lua, lauxlib, lualib, to_luastring, to_jsstring } = fengari;

/** Argo CD's limit for one script run. */
const ACTION_SCRIPT_TIMEOUT_MS = 1_000;
const HOOK_INSTRUCTIONS = 1_000;

export class ActionScriptError extends Error {
  override name = 'ActionScriptError';
}

export interface ActionScriptRun {
  /** The Lua source. */
  source: string;
  /** Where it came from, for messages (`apps/Deployment/actions/scale/action.lua`). */
  name: string;
  openLibs: boolean;
  /** The live object, bound to the global `obj`. */
  obj: unknown;
  /** Bound to the global `actionParams` when given (every action run gets a table, empty without parameters). */
  params?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

const OPEN_LIBS = [
  ['string', 'luaopen_string'],
  ['math', 'luaopen_math'],
  ['coroutine', 'luaopen_coroutine'],
] as const;

function setGlobalFunction(L: LuaState, name: string, fn: ((L: LuaState) => number) | null): void {
  if (fn === null) lua.lua_pushnil(L);
  else lua.lua_pushjsfunction(L, fn);
  lua.lua_setglobal(L, to_luastring(name));
}

/** `require(name)`: the global library table of that name, for the libraries this state opened. */
function requireFrom(libraries: readonly string[]) {
  return (L: LuaState): number => {
    const name = to_jsstring(lauxlib.luaL_checkstring(L, 1));
    if (libraries.includes(name) && lua.lua_getglobal(L, to_luastring(name)) === lua.LUA_TTABLE) return 1;
    return lauxlib.luaL_error(L, to_luastring(`module '${name}' not found`));
  };
}

function newState(openLibs: boolean): LuaState {
  const L = lauxlib.luaL_newstate();
  lauxlib.luaL_requiref(L, to_luastring('_G'), lualib.luaopen_base, 1);
  lauxlib.luaL_requiref(L, to_luastring('table'), lualib.luaopen_table, 1);
  lua.lua_pushjsfunction(L, (S) => {
    lauxlib.luaL_checktype(S, 1, lua.LUA_TTABLE);
    lua.lua_pushnumber(S, lua.lua_rawlen(S, 1));
    return 1;
  });
  lua.lua_setfield(L, -2, to_luastring('getn'));
  lua.lua_getfield(L, -1, to_luastring('unpack'));
  lua.lua_setglobal(L, to_luastring('unpack'));
  lua.lua_settop(L, 0);
  for (const name of ['load', 'loadfile', 'dofile']) setGlobalFunction(L, name, null);
  setGlobalFunction(L, 'print', () => 0);
  const libraries = ['_G', 'table', 'os'];
  if (openLibs) {
    for (const [name, open] of OPEN_LIBS) {
      lauxlib.luaL_requiref(L, to_luastring(name), lualib[open], 1);
      libraries.push(name);
    }
    lua.lua_settop(L, 0);
  }
  pushSafeOs(L, openLibs);
  lua.lua_setglobal(L, to_luastring('os'));
  setGlobalFunction(L, 'require', requireFrom(libraries));
  return L;
}

function errorText(L: LuaState): string {
  const message = lua.lua_tostring(L, -1);
  return message === null
    ? `(error object is a ${to_jsstring(lua.lua_typename(L, lua.lua_type(L, -1)))} value)`
    : to_jsstring(message);
}

/** Runs the script; its first return value as JSON (null when it returns nothing). Throws ActionScriptError. */
export function runActionScript(run: ActionScriptRun): Json {
  const timeoutMs = run.timeoutMs ?? ACTION_SCRIPT_TIMEOUT_MS;
  let L: LuaState | undefined;
  try {
    L = newState(run.openLibs);
    if (pushValue(L, run.obj)) lua.lua_setglobal(L, to_luastring('obj'));
    if (run.params !== undefined) {
      pushValue(L, { ...run.params });
      lua.lua_setglobal(L, to_luastring('actionParams'));
    }
    const code = to_luastring(run.source);
    if (
      lauxlib.luaL_loadbufferx(L, code, code.length, to_luastring(`=${run.name}`), to_luastring('t')) !== 0
    ) {
      throw new ActionScriptError(errorText(L));
    }
    const deadline = performance.now() + timeoutMs;
    const timeoutMessage = `${run.name}: timed out after ${timeoutMs} ms`;
    let timedOut = false;
    const hook = (H: LuaState) => {
      if (!timedOut && performance.now() < deadline) return;
      if (!timedOut) {
        timedOut = true;
        lua.lua_sethook(H, hook, lua.LUA_MASKCOUNT, 1);
      }
      lauxlib.luaL_error(H, to_luastring(timeoutMessage));
    };
    lua.lua_sethook(L, hook, lua.LUA_MASKCOUNT, HOOK_INSTRUCTIONS);
    const status = lua.lua_pcall(L, 0, 1, 0);
    lua.lua_sethook(L, null, 0, 0);
    if (timedOut) throw new ActionScriptError(timeoutMessage);
    if (status !== lua.LUA_OK) throw new ActionScriptError(errorText(L));
    return readLuaJson(L, -1);
  } catch (err) {
    if (err instanceof ActionScriptError) throw err;
    if (err instanceof LuaJsonError) throw new ActionScriptError(`${run.name}: ${err.message}`);
    throw new ActionScriptError(`${run.name}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (L !== undefined) lua.lua_close(L);
  }
}
