import { describe, expect, it } from 'vitest';
import { createHealthScriptVm, type HealthScript } from './run-health-script.js';

const vm = createHealthScriptVm({ timeoutMs: 200 });
const script = (source: string, openLibs = true): HealthScript => ({ source, name: 'test.lua', openLibs });
const messageOf = (source: string, obj: unknown = {}, openLibs = true) =>
  vm.run(script(`return { status = "Healthy", message = ${source} }`, openLibs), obj).message;

describe('runHealthScript: the result, as Argo CD reads it', () => {
  it('returns the status and message of the table, message "" when absent', () => {
    expect(vm.run(script('return { status = "Degraded", message = "x" }'), {})).toEqual({
      status: 'Degraded',
      message: 'x',
    });
    expect(vm.run(script('return { status = "Suspended" }'), {})).toEqual({
      status: 'Suspended',
      message: '',
    });
  });

  it('reads the live object from the global obj (nulls absent, arrays compacted)', () => {
    const obj = { status: { conditions: [{ type: 'Ready' }, null, { type: 'Synced' }], gone: null } };
    expect(
      messageOf('#obj.status.conditions .. obj.status.conditions[2].type .. tostring(obj.status.gone)', obj),
    ).toBe('2Syncednil');
  });

  it('gives Unknown with the reason for an invalid status, a non-table, nil, {} and a Lua error', () => {
    expect(vm.run(script('return { status = "Fine" }'), {})).toEqual({
      status: 'Unknown',
      message: 'Lua returned an invalid health status',
    });
    expect(vm.run(script('return "Healthy"'), {})).toEqual({
      status: 'Unknown',
      message: 'expect table output from Lua script, not string',
    });
    expect(vm.run(script('local x = 1'), {}).message).toBe('Lua returned no health status');
    expect(vm.run(script('return {}'), {}).message).toBe('Lua returned no health status');
    expect(vm.run(script('return obj.status.phase'), {})).toEqual({
      status: 'Unknown',
      message: "test.lua:1: attempt to index a nil value (field 'status')",
    });
    expect(vm.run(script('error("boom")'), {}).message).toBe('test.lua:1: boom');
    expect(vm.run(script('return {'), {}).status).toBe('Unknown');
  });

  it('stops a script at the time limit, even one that catches errors', () => {
    expect(vm.run(script('while true do end'), {})).toEqual({
      status: 'Unknown',
      message: 'test.lua: timed out after 200 ms',
    });
    const stubborn = 'while true do pcall(function() while true do end end) end';
    expect(vm.run(script(stubborn), {}).message).toBe('test.lua: timed out after 200 ms');
    expect(vm.run(script('return { status = "Healthy" }'), {}).status).toBe('Healthy');
  });
});

describe('runHealthScript: gopher-lua compatibility', () => {
  it('prints whole numbers without .0, other numbers as Lua does', () => {
    expect(messageOf('tostring(obj.n) .. " " .. (obj.n / 2) .. " " .. (obj.n / 8)', { n: 4 })).toBe(
      '4 2 0.5',
    );
    expect(messageOf('string.format("%d/%d", obj.a, obj.b)', { a: 1, b: 3 })).toBe('1/3');
  });

  it('has table.getn and unpack (Lua 5.1), goto (gopher-lua)', () => {
    expect(messageOf('table.getn(obj.list) .. select("#", unpack(obj.list))', { list: [1, 2, 3] })).toBe(
      '33',
    );
    const withGoto = 'for i = 1, 3 do if i == 2 then goto continue end n = (n or 0) + i ::continue:: end';
    expect(
      vm.run(script(`${withGoto}\nreturn { status = "Healthy", message = tostring(n) }`), {}).message,
    ).toBe('4');
  });

  it('os.time reads only numeric fields (gopher-lua), os.date formats as gopher-lua does', () => {
    const fromNumbers = 'os.time({ year = 2024, month = 3, day = 5, hour = 0 })';
    expect(Number(messageOf(`tostring(${fromNumbers})`))).toBe(
      new Date(2024, 2, 5, 0, 0, 0).getTime() / 1000,
    );
    // strings count as missing: sec 0, min 0, hour 12, day/month/year -1, yet a number
    expect(messageOf('type(os.time({ year = "2024", month = "3", day = "5" }))')).toBe('number');
    expect(messageOf('os.date("!%Y-%m-%dT%H:%M:%SZ", 0)')).toMatch(/^19(69|70)-/);
    expect(messageOf('os.date("!%F %X")')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Math.abs(Number(messageOf('tostring(os.time())')) - Date.now() / 1000)).toBeLessThan(5);
    expect(messageOf('tostring(require("os").date ~= nil)')).toBe('true');
  });

  it('opens string and math only with the open libraries', () => {
    expect(messageOf('("ab"):upper() .. math.floor(2.5)')).toBe('AB2');
    expect(vm.run(script('return { status = string.upper("healthy") }', false), {}).message).toMatch(
      /attempt to index a nil value \(global 'string'\)/,
    );
  });
});

describe('runHealthScript: isolation', () => {
  it('has no file, process or debug access', () => {
    expect(messageOf('tostring(io) .. tostring(debug) .. tostring(os.execute) .. tostring(os.getenv)')).toBe(
      'nilnilnilnil',
    );
    expect(messageOf('tostring(dofile) .. tostring(loadfile) .. tostring(load) .. tostring(package)')).toBe(
      'nilnilnilnil',
    );
    expect(vm.run(script('return require("io")'), {}).message).toMatch(/module 'io' not found/);
  });

  it('shows no script anything an earlier call did: globals, library tables, string methods, metatables', () => {
    const meddle = [
      'leaked = "yes"',
      'string.upper = function() return "patched" end',
      'string.extra = function() return "extra" end',
      'table.insert = nil',
      'os.time = nil',
      'require("os").date = nil',
      '_G.viaG = 1',
      'local changedG = pcall(setmetatable, _G, { __index = function() return "meta" end })',
      'local changedString = pcall(setmetatable, getmetatable(""), {})',
      'ipairs = nil',
      'return { status = "Healthy", message = ("x"):extra() .. tostring(getmetatable("")) ..',
      '  tostring(changedG) .. tostring(changedString) .. tostring(getmetatable(_G)) }',
    ].join('\n');
    expect(vm.run(script(meddle), {})).toEqual({ status: 'Healthy', message: 'extrafalsefalsefalsefalse' });
    const look = [
      'tostring(leaked)',
      '("x"):upper()',
      'tostring(string.extra)',
      'tostring(table.insert ~= nil)',
      'tostring(os.time ~= nil)',
      'tostring(os.date ~= nil)',
      'tostring(viaG)',
      'tostring(ipairs ~= nil)',
    ].join(' .. "," .. ');
    expect(messageOf(look)).toBe('nil,X,nil,true,true,true,nil,true');
    expect(messageOf('tostring(leaked)', {}, false)).toBe('nil');
  });

  it('keeps working after a script that errors or times out', () => {
    vm.run(script('error({})'), {});
    vm.run(script('while true do end'), {});
    expect(vm.run(script('return { status = "Progressing", message = obj.m }'), { m: 'ok' })).toEqual({
      status: 'Progressing',
      message: 'ok',
    });
  });
});
