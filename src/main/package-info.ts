/**
 * Where wavesync is installed and which version it is, read from its package.json. Works from the sources
 * (src/main/) and from the build (dist/src/main/) because it walks up to the first package.json named wavesync.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: { root: string; version: string } | undefined;

function find(): { root: string; version: string } {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'wavesync') {
        cached = { root: dir, version: pkg.version ?? '0.0.0' };
        return cached;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the package.json of wavesync above ' + import.meta.url);
    dir = parent;
  }
}

/** Absolute directory holding wavesync's package.json (and examples/). */
export function packageRoot(): string {
  return find().root;
}

/** wavesync's version from package.json. */
export function packageVersion(): string {
  return find().version;
}
