/**
 * The `os` table a health script sees: Argo CD's "safe" OS library (argo-cd `util/lua/oslib_safe.go`), which has
 * only `os.time` and `os.date`, with gopher-lua's semantics — not Lua 5.3's:
 * - `os.time()` is the current Unix time in seconds; `os.time{year=…, month=…, day=…, hour=…, min=…, sec=…}` reads
 *   only fields that are numbers (a string such as `"2024"` counts as missing: sec 0, min 0, hour 12, day, month and
 *   year -1, the way gopher-lua reads them) and builds the time in the process's local time zone;
 * - `os.date([format [, t]])`: `!` first means UTC (unless `t` is given, which is read in local time, as there);
 *   `*t` gives a table (year, month, day, hour, min, sec, wday; yday 0 and isdst false, as there); otherwise the
 *   format's `%` flags are those of gopher-lua's strftime (`%a` prints `mon`, `%x` prints `HH/MM/SS`, as there),
 *   default `%c`.
 * With the open libraries (built-in scripts, `useOpenLibs`), `os.clock` and `os.difftime` are there too; nothing
 * that reads files, the environment or runs processes ever is.
 */
import { fengari, type LuaFunction, type LuaState } from './fengari.js';

const { lua, lauxlib, to_luastring, to_jsstring } = fengari;

function numberField(L: LuaState, key: string, fallback: number): number {
  lua.lua_getfield(L, 1, to_luastring(key));
  const value = lua.lua_type(L, -1) === lua.LUA_TNUMBER ? Math.trunc(lua.lua_tonumber(L, -1)) : fallback;
  lua.lua_pop(L, 1);
  return value;
}

const osTime: LuaFunction = (L) => {
  if (lua.lua_gettop(L) === 0) {
    lua.lua_pushnumber(L, Math.floor(Date.now() / 1000));
    return 1;
  }
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  const date = new Date(
    numberField(L, 'year', -1),
    numberField(L, 'month', -1) - 1,
    numberField(L, 'day', -1),
    numberField(L, 'hour', 12),
    numberField(L, 'min', 0),
    numberField(L, 'sec', 0),
  );
  // new Date(y, …) maps years 0–99 to 1900–1999; Go's time.Date does not.
  const year = numberField(L, 'year', -1);
  if (year >= 0 && year < 100) date.setFullYear(year);
  lua.lua_pushnumber(L, Math.floor(date.getTime() / 1000));
  return 1;
};

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  min: number;
  sec: number;
  wday: number;
  offsetMinutes: number;
  zone: string;
}

function partsOf(date: Date, utc: boolean): Parts {
  if (utc) {
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      min: date.getUTCMinutes(),
      sec: date.getUTCSeconds(),
      wday: date.getUTCDay(),
      offsetMinutes: 0,
      zone: 'UTC',
    };
  }
  const zone =
    new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
      .formatToParts(date)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    min: date.getMinutes(),
    sec: date.getSeconds(),
    wday: date.getDay(),
    offsetMinutes: -date.getTimezoneOffset(),
    zone,
  };
}

const two = (n: number) => String(n).padStart(2, '0');

function offsetOf(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}${two(abs % 60)}`;
}

/** One `%` flag as gopher-lua's strftime (Go layouts) renders it; undefined for a flag it keeps as written. */
function flag(c: string, p: Parts): string | undefined {
  const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  const pm = p.hour >= 12;
  switch (c) {
    case 'a':
      return 'mon'; // gopher-lua maps %a to the Go layout "mon", which Go prints as written
    case 'A':
      return WEEKDAYS[p.wday];
    case 'b':
      return MONTHS[p.month - 1]?.slice(0, 3);
    case 'B':
      return MONTHS[p.month - 1];
    case 'c':
      return `${two(p.day)} ${MONTHS[p.month - 1]?.slice(0, 3)} ${two(p.year % 100)} ${two(p.hour)}:${two(p.min)} ${p.zone}`;
    case 'd':
      return two(p.day);
    case 'F':
      return `${p.year}-${two(p.month)}-${two(p.day)}`;
    case 'H':
      return two(p.hour);
    case 'I':
      return two(hour12);
    case 'm':
      return two(p.month);
    case 'M':
      return two(p.min);
    case 'p':
      return pm ? 'PM' : 'AM';
    case 'P':
      return pm ? 'pm' : 'am';
    case 'S':
      return two(p.sec);
    case 'x':
      return `${two(p.hour)}/${two(p.min)}/${two(p.sec)}`;
    case 'X':
      return `${two(p.hour)}:${two(p.min)}:${two(p.sec)}`;
    case 'y':
      return two(p.year % 100);
    case 'Y':
      return String(p.year);
    case 'z':
      return offsetOf(p.offsetMinutes);
    case 'Z':
      return p.zone;
    case 'w':
      return String(p.wday);
    default:
      return undefined;
  }
}

function strftime(format: string, parts: Parts): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i] as string;
    if (c !== '%' || i === format.length - 1) {
      out += c;
      continue;
    }
    const next = format[++i] as string;
    out += flag(next, parts) ?? `%${next}`;
  }
  return out;
}

function setNumber(L: LuaState, key: string, value: number): void {
  lua.lua_pushnumber(L, value);
  lua.lua_setfield(L, -2, to_luastring(key));
}

const osDate: LuaFunction = (L) => {
  let format = '%c';
  let date = new Date();
  let utc = false;
  const args = lua.lua_gettop(L);
  if (args >= 1) {
    format = to_jsstring(lauxlib.luaL_checkstring(L, 1));
    if (format.startsWith('!')) {
      utc = true;
      format = format.replace(/^!+/, '');
    }
    if (args >= 2) {
      date = new Date(Math.trunc(lauxlib.luaL_checknumber(L, 2)) * 1000);
      utc = false;
    }
  }
  const parts = partsOf(date, utc);
  if (format.startsWith('*t')) {
    lua.lua_createtable(L, 0, 9);
    setNumber(L, 'year', parts.year);
    setNumber(L, 'month', parts.month);
    setNumber(L, 'day', parts.day);
    setNumber(L, 'hour', parts.hour);
    setNumber(L, 'min', parts.min);
    setNumber(L, 'sec', parts.sec);
    setNumber(L, 'wday', parts.wday + 1);
    setNumber(L, 'yday', 0);
    lua.lua_pushboolean(L, false);
    lua.lua_setfield(L, -2, to_luastring('isdst'));
    return 1;
  }
  lua.lua_pushstring(L, to_luastring(strftime(format, parts)));
  return 1;
};

const startedAt = performance.now();

const osClock: LuaFunction = (L) => {
  lua.lua_pushnumber(L, (performance.now() - startedAt) / 1000);
  return 1;
};

const osDifftime: LuaFunction = (L) => {
  lua.lua_pushnumber(L, lauxlib.luaL_checknumber(L, 1) - (lua.lua_tonumber(L, 2) || 0));
  return 1;
};

/** Pushes the `os` table: time and date, plus clock and difftime with the open libraries. */
export function pushSafeOs(L: LuaState, openLibs: boolean): void {
  const functions: [string, LuaFunction][] = [
    ['time', osTime],
    ['date', osDate],
  ];
  if (openLibs) functions.push(['clock', osClock], ['difftime', osDifftime]);
  lua.lua_createtable(L, 0, functions.length);
  for (const [name, fn] of functions) {
    lua.lua_pushjsfunction(L, fn);
    lua.lua_setfield(L, -2, to_luastring(name));
  }
}
