/**
 * No test that runs against Redis, BullMQ or a Slack fake starts a clock at a fixed calendar date. Those have
 * clocks of their own (Redis expires keys in real time; BullMQ delays and Slack's signed timestamps are real
 * time), so a fixed date works on the day it is written and fails some days later (issue 26: the approval suite
 * went red a week after it landed). Unit tests of pure code (freeze windows, drift episodes) may fix dates; the
 * folders scanned here may not — derive times from `Date.now()` instead.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCANNED = ['test/integration', 'test/e2e', 'test/fakes', 'test/support'];
/** A clock set from a calendar literal: Date.parse('2026-…'), new Date('2026-…'), Date.UTC(2026, …). */
const FIXED_CLOCK = /Date\.parse\(\s*['"`]\d{4}-|new Date\(\s*['"`]\d{4}-|Date\.UTC\(\s*\d{4}/;

async function* tsFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

describe('test/unit/hygiene/no-fixed-clock', () => {
  it('no integration or e2e test, fake or support file sets a clock from a calendar date', async () => {
    const hits: string[] = [];
    for (const folder of SCANNED) {
      for await (const file of tsFiles(path.join(ROOT, folder))) {
        const lines = (await readFile(file, 'utf8')).split('\n');
        lines.forEach((line, i) => {
          if (FIXED_CLOCK.test(line)) hits.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(hits).toEqual([]);
  });

  it('the pattern catches the forms it names', () => {
    for (const line of [
      "const T = Date.parse('2026-11-25T10:00:00Z');",
      'const now = new Date("2026-11-30T02:00:00Z");',
      'const at = new Date(Date.UTC(2026, 10, 29));',
    ]) {
      expect(line).toMatch(FIXED_CLOCK);
    }
    expect('const now = new Date(Date.now() + skew);').not.toMatch(FIXED_CLOCK);
  });
});
