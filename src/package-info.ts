/**
 * Where wavesync is installed and which version it is, read once from its package.json (`wavesync --version`,
 * /healthz, the demo's examples/). Works from the sources (src/), from tsc's build (dist/src/) and from the bundle
 * (dist/cli/) because it walks up to the first package.json named wavesync.
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

/** wavesync's version from package.json; `unknown` when no package.json named wavesync is above this file. */
export function packageVersion(): string {
  try {
    return find().version;
  } catch {
    return 'unknown';
  }
}
