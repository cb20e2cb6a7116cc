/**
 * No product file over 400 lines (issue 35): a file that grows past it holds more than one responsibility and is
 * split by them, each new file named for what it holds. Product files are the non-test `.ts` files of src/ and
 * sim/; tests, fakes and benchmarks are not counted.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCANNED = ['src', 'sim'];
const MAX_LINES = 400;

async function* productFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* productFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield full;
  }
}

/** The file's lines; a last line without its newline counts too. */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('test/unit/hygiene/file-size', () => {
  it(`no non-test .ts file in src/ or sim/ is over ${MAX_LINES} lines`, async () => {
    const over: string[] = [];
    for (const folder of SCANNED) {
      for await (const file of productFiles(path.join(ROOT, folder))) {
        const lines = lineCount(await readFile(file, 'utf8'));
        if (lines > MAX_LINES) over.push(`${path.relative(ROOT, file)}: ${lines} lines`);
      }
    }
    expect(over).toEqual([]);
  });

  it('counts lines, a last one without its newline too', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount(`${'x\n'.repeat(MAX_LINES + 1)}`)).toBe(MAX_LINES + 1);
  });
});
