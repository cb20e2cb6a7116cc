/**
 * The worker runner bounds what a script can do to wavesync: string bombs end at the byte budget, loops at the
 * time limit, table bombs at the worker's heap limit, a native call that never returns by terminating the
 * worker — each as Unknown with the reason, and the event loop keeps turning meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealthScriptRunner } from './health-script-runner.js';
import type { HealthScript } from './run-health-script.js';

const script = (source: string): HealthScript => ({ source, name: 'bomb.lua', openLibs: true });
const healthy = script('return { status = "Healthy", message = obj.metadata.name }');
const obj = { metadata: { name: 'web' } };

/** Argo CD's limits; a heap limit small enough for a test. */
const runner = createHealthScriptRunner({ timeoutMs: 1_000, maxHeapMb: 48, graceMs: 300 });
/** A time limit no bomb reaches, so that each guard is seen on its own, whatever the machine's load. */
const patient = createHealthScriptRunner({ timeoutMs: 30_000, maxHeapMb: 48 });

/**
 * The event loop did not wait for the script: its longest gap stays well below the script's run (a blocked loop
 * shows one gap as long as the run). On a machine so loaded that every thread waits for a core, gaps grow, so the
 * bound is the larger of 700 ms and half the run.
 */
const notBlocked = (gapMs: number, runMs: number) => expect(gapMs).toBeLessThan(Math.max(700, runMs / 2));

/** Runs `source`, measuring its wall time and the longest gap between 5 ms timer ticks meanwhile. */
async function timed(source: string, on = runner) {
  let last = performance.now();
  let longestGapMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 5);
  const start = performance.now();
  const health = await on.run(script(source), obj);
  const ms = performance.now() - start;
  clearInterval(ticker);
  return { health, ms, longestGapMs };
}

/** 1 MB made in 1,024 copies of 1 KB (string.rep copies the unit once per repetition). */
const MB = 'string.rep(string.rep("x", 1024), 1024)';
const BUDGET = 'bomb.lua: made more than 64 MB of strings (the limit of one run)';

beforeAll(async () => {
  // Both workers started before anything is timed.
  expect(await runner.run(healthy, obj)).toEqual({ status: 'Healthy', message: 'web' });
  expect(await patient.run(healthy, obj)).toEqual({ status: 'Healthy', message: 'web' });
}, 60_000); // two workers start through tsx, on a loaded machine
afterAll(() => Promise.all([runner.close(), patient.close()]));

describe('health scripts in the worker: a script cannot hold wavesync', () => {
  it.each([
    ['a doubling concat', `local s = ${MB} for i = 1, 40 do s = s .. s end return { status = "Healthy" }`],
    ['a string.rep bomb', 'local s = string.rep("x", 2^30) return { status = "Healthy" }'],
    [
      'table.concat of big strings',
      `local s, t = ${MB}, {} for i = 1, 100 do t[i] = s end return { status = "Healthy", message = table.concat(t) }`,
    ],
    [
      'gsub growing a string',
      `local s = ${MB} s = s:gsub("x", function() return s end) return { status = "Healthy" }`,
    ],
    [
      'a bomb inside pcall, then Healthy',
      `pcall(function() local s = ${MB} for i = 1, 40 do s = s .. s end end) return { status = "Healthy" }`,
    ],
  ])('%s: Unknown at the byte budget', async (_, source) => {
    const { health } = await timed(source, patient);
    expect(health).toEqual({ status: 'Unknown', message: BUDGET });
    expect(await patient.run(healthy, obj)).toEqual({ status: 'Healthy', message: 'web' });
  });

  it("the tester's concat bomb from one byte: Unknown within the second, the event loop free", async () => {
    const { health, ms, longestGapMs } = await timed(
      'local s = "x" for i = 1, 40 do s = s .. s end return { status = "Healthy" }',
    );
    expect(health.status).toBe('Unknown');
    // The budget, or on a machine too loaded to copy 128 MB in a second, the time limit.
    expect([BUDGET, 'bomb.lua: timed out after 1000 ms']).toContain(health.message);
    expect(ms).toBeLessThan(10_000); // ~0.5 s on a quiet machine; the answer waits for a core under load
    notBlocked(longestGapMs, ms);
  });

  it('an endless loop: Unknown at the time limit, the event loop free meanwhile', async () => {
    const { health, ms, longestGapMs } = await timed('while true do end');
    expect(health).toEqual({ status: 'Unknown', message: 'bomb.lua: timed out after 1000 ms' });
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(10_000); // ~1.0 s on a quiet machine; the answer waits for a core under load
    notBlocked(longestGapMs, ms);
  });

  it('a table bomb: Unknown at the heap limit, the worker replaced', async () => {
    const { health, ms, longestGapMs } = await timed('local t = {} for i = 1, 1e9 do t[i] = i end', patient);
    expect(health).toEqual({ status: 'Unknown', message: 'bomb.lua: used more than 48 MB of memory' });
    notBlocked(longestGapMs, ms);
    expect(await patient.run(healthy, obj)).toEqual({ status: 'Healthy', message: 'web' });
  });

  it('one native call that never returns: the worker is terminated after the grace, the next run answered', async () => {
    // Lua patterns backtrack: this one call takes hours, and no instruction hook runs inside it.
    const stuck =
      'local s = string.rep("a", 20000) return { status = "Healthy", message = tostring(s:find(".-.-.-.-b")) }';
    const behind = runner.run(healthy, obj);
    const { health, ms, longestGapMs } = await timed(stuck);
    expect(health).toEqual({ status: 'Unknown', message: 'bomb.lua: timed out after 1000 ms' });
    expect(ms).toBeGreaterThanOrEqual(1_290);
    notBlocked(longestGapMs, ms);
    expect(await behind).toEqual({ status: 'Healthy', message: 'web' });
  });

  it('runs queued behind a stopped one are answered in order by the new worker', async () => {
    const runs = [
      runner.run(healthy, { metadata: { name: 'a' } }),
      runner.run(script('while true do end'), obj),
      runner.run(healthy, { metadata: { name: 'b' } }),
      runner.run(
        script(
          'local s = string.rep("a", 20000) return { status = "Healthy", message = tostring(s:find(".-.-.-.-b")) }',
        ),
        obj,
      ),
      runner.run(healthy, { metadata: { name: 'c' } }),
    ];
    const results = await Promise.all(runs);
    expect(results.map((h) => h.message)).toEqual([
      'a',
      'bomb.lua: timed out after 1000 ms',
      'b',
      'bomb.lua: timed out after 1000 ms',
      'c',
    ]);
  });

  it('an object that cannot be copied to the worker is Unknown with why', async () => {
    const health = await runner.run(healthy, { metadata: { name: () => 'x' } });
    expect(health.status).toBe('Unknown');
    expect(health.message).toMatch(/^bomb\.lua: .*could not be cloned/);
  });
});
