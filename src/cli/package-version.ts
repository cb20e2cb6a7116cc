/** The version in wavesync's package.json (`wavesync --version`), read once at start-up. */
import { readFileSync } from 'node:fs';

/**
 * `version` of the nearest package.json named wavesync above this file: src/cli/ in a checkout (tsx),
 * dist/src/cli/ when compiled.
 */
export function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'wavesync' && pkg.version) return pkg.version;
    } catch {
      // no package.json here: look one folder up
    }
  }
  return 'unknown';
}
