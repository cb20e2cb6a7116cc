/**
 * The Lua VM for health scripts: runs one script on one live object the way Argo CD does (argo-cd
 * `util/lua/lua.go` ExecuteHealthLua; gitops-engine turns its errors into Unknown):
 * - the live object is the global `obj` (JSON numbers are floats as in gopher-lua, `null`s are absent, arrays
 *   compacted, as Argo CD's decodeValue does);
 * - libraries: base, table (with Lua 5.1's `table.getn` and global `unpack`, which Argo CD's scripts still use),
 *   the safe `os` (safe-os.ts) and a `require` that hands out only these; with `openLibs` (every built-in script,
 *   and an override with `useOpenLibs`) also string, math and coroutine. Never io, debug, package searchers,
 *   `load`/`dofile`/`loadfile`; `print` prints nothing. (Argo CD's open libraries include gopher-lua's io and full
 *   os; wavesync leaves them out on purpose: a health check has no business with files or processes.)
 * - a time limit (Argo CD: 1 s), checked every 1,000 VM instructions, then on every one so that a `pcall` in
 *   the script cannot swallow it;
 * - the result: a table's `status` (Healthy, Progressing, Degraded, Suspended, Missing or Unknown) and `message`;
 *   any other status → Unknown "Lua returned an invalid health status"; a Lua error or the time limit → Unknown
 *   with the reason; a value that is not a table → Unknown "expect table output from Lua script, not …". Where
 *   Argo CD gives an empty status (the script returned nil or `{}`), wavesync says Unknown "Lua returned no
 *   health status".
 *
 * Isolation. Argo CD opens a fresh gopher-lua state per call. A fresh fengari state costs ~0.7 ms of CPU
 * (opening the libraries, compiling the script; BENCHMARKS.md), so wavesync keeps one state per library set and
 * gives every call a fresh environment instead, which is what a fresh state guarantees to a script: its globals
 * (`_ENV`, `_G`) are a new table; a library table (`string`, `table`, `math`, `os`, `coroutine`) is copied into
 * it the first time the call reads it, so what the script changes in it stays in that call; other globals (the
 * shared base functions) are looked up in the pristine globals; string methods (`("x"):f()`) come from the
 * running call's `string`; the environment's and the string metatable are protected (`getmetatable` gives
 * `false`, `setmetatable` on them fails); `require` hands out the call's copies; there is no `debug` and no
 * `load`, the only ways to reach anything shared. Functions are shared, and they hold no state. The compiled
 * script is cached per source (Argo CD caches compiled scripts too). `run-health-script.test.ts` checks that
 * nothing a script does is seen by the next one. Differences a script could notice: `pairs(_G)` lists only what
 * the call used, and a base function set to nil is found again. The libraries and environments are set up in
 * lua-environment.ts, the live object pushed by push-value.ts.
 *
 * The VM is fengari (Lua 5.3 in JavaScript) set up to print whole numbers without `.0`, as gopher-lua (Lua 5.1)
 * does. Integer arithmetic on constants written in a script is 32-bit in fengari (gopher-lua: float64).
 */
import { HEALTH_STATUS_CODES, type HealthStatus, type HealthStatusCode } from '../domain/index.js';
import {
  byteBudgetExceeded,
  endByteBudget,
  HEALTH_SCRIPT_BYTE_BUDGET,
  startByteBudget,
} from './byte-budget.js';
import { fengari, type LuaState } from './fengari.js';
import { CURRENT_ENV, openLibraries, pushFreshEnvironment } from './lua-environment.js';
import { luaString, pushValue } from './push-value.js';

const { lua, lauxlib, to_luastring, to_jsstring } = fengari;

/** Argo CD's limit for one script run. */
export const HEALTH_SCRIPT_TIMEOUT_MS = 1_000;
const HOOK_INSTRUCTIONS = 1_000;
/** Compiled scripts kept per state (Argo CD: 1,024); all are dropped when it is full. */
const COMPILED_LIMIT = 1_024;

export interface HealthScript {
  /** The Lua source. */
  source: string;
  /** Where it came from, shown in error messages (e.g. `cert-manager.io/Certificate/health.lua`). */
  name: string;
  /** Open the string, math and coroutine libraries (built-in scripts always; overrides with `useOpenLibs`). */
  openLibs: boolean;
}

export interface HealthScriptVm {
  /** The health `script` gives `obj`; never throws. */
  run(script: HealthScript, obj: unknown): HealthStatus;
}

export interface HealthScriptVmOptions {
  /** Default HEALTH_SCRIPT_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * Bytes of strings one call may make (byte-budget.ts), default HEALTH_SCRIPT_BYTE_BUDGET. Enforced only where
   * the byte arrays are metered (the health-script worker); elsewhere nothing is counted.
   */
  byteBudget?: number;
}

function unknown(message: string): HealthStatus {
  return { status: 'Unknown', message };
}

function typeName(L: LuaState, index: number): string {
  return to_jsstring(lua.lua_typename(L, lua.lua_type(L, index)));
}

/** Reads field `key` of the table at the top: a string, undefined when absent, or null for another type. */
function stringField(L: LuaState, key: string): string | undefined | null {
  lua.lua_pushstring(L, luaString(key));
  const type = lua.lua_rawget(L, -2);
  const value =
    type === lua.LUA_TNIL
      ? undefined
      : type === lua.LUA_TSTRING
        ? to_jsstring(lua.lua_tostring(L, -1)!)
        : null;
  lua.lua_pop(L, 1);
  return value;
}

function isEmptyTable(L: LuaState): boolean {
  lua.lua_pushnil(L);
  if (lua.lua_next(L, -2) === 0) return true;
  lua.lua_pop(L, 2);
  return false;
}

function resultOf(L: LuaState, base: number): HealthStatus {
  const type = lua.lua_gettop(L) === base ? lua.LUA_TNIL : lua.lua_type(L, -1);
  if (type === lua.LUA_TNIL || (type === lua.LUA_TTABLE && isEmptyTable(L))) {
    return unknown('Lua returned no health status');
  }
  if (type !== lua.LUA_TTABLE) return unknown(`expect table output from Lua script, not ${typeName(L, -1)}`);
  const status = stringField(L, 'status');
  const message = stringField(L, 'message');
  if (status === null) return unknown('Lua returned a health status that is not a string');
  if (message === null) return unknown('Lua returned a health message that is not a string');
  if (status === undefined || !HEALTH_STATUS_CODES.includes(status as HealthStatusCode)) {
    return unknown('Lua returned an invalid health status');
  }
  return { status: status as HealthStatusCode, message: message ?? '' };
}

function errorText(L: LuaState): string {
  const message = lua.lua_tostring(L, -1);
  return message === null ? `(error object is a ${typeName(L, -1)} value)` : to_jsstring(message);
}

/** One Lua state with one library set, its pristine globals and its compiled scripts (registry refs). */
class ScriptState {
  readonly L: LuaState;
  private readonly compiled = new Map<string, number>();

  constructor(openLibs: boolean) {
    this.L = lauxlib.luaL_newstate();
    openLibraries(this.L, openLibs);
  }

  /**
   * Pushes the script's compiled factory, `function(_ENV, ...) <script> end`: the script runs with the environment it
   * is called with. Written on the script's first line, so line numbers stay those of the file. Undefined (and
   * the error on the stack) when it does not compile.
   */
  pushCompiled(script: HealthScript): boolean {
    const { L } = this;
    const ref = this.compiled.get(script.source);
    if (ref !== undefined) {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
      return true;
    }
    const wrapped = to_luastring(`return function(_ENV, ...) ${script.source}\nend`);
    const name = to_luastring(`=${script.name}`);
    if (lauxlib.luaL_loadbufferx(L, wrapped, wrapped.length, name, luaString('t')) !== lua.LUA_OK)
      return false;
    if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) return false;
    if (this.compiled.size >= COMPILED_LIMIT) {
      for (const old of this.compiled.values()) lauxlib.luaL_unref(L, lua.LUA_REGISTRYINDEX, old);
      this.compiled.clear();
    }
    lua.lua_pushvalue(L, -1);
    this.compiled.set(script.source, lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX));
    return true;
  }

  /** Runs the factory on top of the stack in a fresh environment whose `obj` is `obj`. */
  /**
   * Runs the factory on top of the stack in a fresh environment whose `obj` is `obj`. Past the time limit or the
   * byte budget every further instruction fails, so a `pcall` in the script cannot carry on, and the call is
   * Unknown whatever the script returns.
   */
  call(obj: unknown, limits: Required<HealthScriptVmOptions>, name: string): HealthStatus {
    const { L } = this;
    const base = lua.lua_gettop(L) - 1;
    startByteBudget(limits.byteBudget);
    try {
      pushFreshEnvironment(L);
      if (pushValue(L, obj)) lua.lua_setfield(L, -2, luaString('obj'));
      lua.lua_pushvalue(L, -1);
      lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, CURRENT_ENV);
      const deadline = performance.now() + limits.timeoutMs;
      let stopped: string | undefined;
      const timeoutMessage = `${name}: timed out after ${limits.timeoutMs} ms`;
      const budgetMessage = `${name}: made more than ${limits.byteBudget / 2 ** 20} MB of strings (the limit of one run)`;
      const hook = (H: LuaState) => {
        if (stopped === undefined) {
          if (byteBudgetExceeded()) stopped = budgetMessage;
          else if (performance.now() >= deadline) stopped = timeoutMessage;
          else return;
          lua.lua_sethook(H, hook, lua.LUA_MASKCOUNT, 1);
        }
        lauxlib.luaL_error(H, to_luastring(stopped));
      };
      lua.lua_sethook(L, hook, lua.LUA_MASKCOUNT, HOOK_INSTRUCTIONS);
      const status = lua.lua_pcall(L, 1, lua.LUA_MULTRET, 0);
      lua.lua_sethook(L, null, 0, 0);
      lua.lua_pushnil(L);
      lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, CURRENT_ENV);
      if (byteBudgetExceeded()) return unknown(budgetMessage);
      if (stopped !== undefined) return unknown(stopped);
      if (status !== lua.LUA_OK) return unknown(errorText(L));
      return resultOf(L, base);
    } finally {
      endByteBudget();
    }
  }
}

/** A VM for health scripts; one per process is enough (calls are synchronous). */
export function createHealthScriptVm(options: HealthScriptVmOptions = {}): HealthScriptVm {
  const limits: Required<HealthScriptVmOptions> = {
    timeoutMs: options.timeoutMs ?? HEALTH_SCRIPT_TIMEOUT_MS,
    byteBudget: options.byteBudget ?? HEALTH_SCRIPT_BYTE_BUDGET,
  };
  const states = new Map<boolean, ScriptState>();
  return {
    run(script, obj) {
      let state = states.get(script.openLibs);
      try {
        if (state === undefined) {
          state = new ScriptState(script.openLibs);
          states.set(script.openLibs, state);
        }
        const { L } = state;
        lua.lua_settop(L, 0);
        if (!state.pushCompiled(script)) return unknown(errorText(L));
        return state.call(obj, limits, script.name);
      } catch (err) {
        // A JavaScript error inside fengari: the state may be inconsistent, so the next call starts a new one.
        states.delete(script.openLibs);
        return unknown(`${script.name}: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        if (states.get(script.openLibs) === state && state) lua.lua_settop(state.L, 0);
      }
    },
  };
}
