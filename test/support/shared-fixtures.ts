/**
 * Where the shared fixtures live: `<repo>/../shared/fixtures` for the main checkout, and one level further up for
 * a git worktree under `/work/wt/<name>`. Walks up from the repository root and returns the first that exists.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Absolute path of the shared fixtures folder: `$WAVESYNC_FIXTURES` when set, else the nearest `shared/fixtures`
 * above the repository. Throws naming the places it looked and how to point the tests at the fixtures.
 */
export function sharedFixturesDir(...segments: string[]): string {
  const fromEnv = process.env.WAVESYNC_FIXTURES;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`WAVESYNC_FIXTURES=${fromEnv} does not exist`);
    return path.join(path.resolve(fromEnv), ...segments);
  }
  const tried: string[] = [];
  for (let dir = path.dirname(repoRoot); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'fixtures');
    tried.push(candidate);
    if (existsSync(candidate)) return path.join(candidate, ...segments);
    if (dir === path.dirname(dir)) break;
  }
  throw new Error(
    `shared fixtures not found; looked in ${tried.join(', ')}. The tests read Argo CD's manifests from the ` +
      `project's shared folder: clone wavesync beside it (../shared/fixtures) or set WAVESYNC_FIXTURES=<dir>.`,
  );
}
