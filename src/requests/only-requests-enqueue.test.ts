import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');

/** Every product source file (tests excluded), relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(SRC, full)] : [];
  });
}

/** A call of enqueueSync (`x.enqueueSync(`, `x?.enqueueSync(`), or a way around one (destructuring, indexing). */
const ENQUEUE =
  /\??\.\s*enqueueSync\s*\(|\{[^}]*\benqueueSync\b[^}]*\}\s*=[^=>]|\[\s*['"`]enqueueSync['"`]\s*\]/;

function enqueuers(): string[] {
  return sources().filter((file) => ENQUEUE.test(readFileSync(path.join(SRC, file), 'utf8')));
}

describe('src/requests is the one path onto the queue', () => {
  it('no module outside src/requests calls enqueueSync: every sync goes through requestSync', () => {
    const found = enqueuers();

    expect(found.filter((file) => !file.startsWith(`requests${path.sep}`))).toEqual([]);
    // The guard sees the calls it guards: requestSync's own.
    expect(found).toContain(path.join('requests', 'request-sync.ts'));
  });
});
