/**
 * Where the shared fixtures live: `<repo>/../shared/fixtures` for the main checkout, and one level further up for
 * a git worktree under `/work/wt/<name>`. Walks up from the repository root and returns the first that exists.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Absolute path of the shared fixtures folder; throws naming the places it looked. */
export function sharedFixturesDir(...segments: string[]): string {
  const tried: string[] = [];
  for (let dir = path.dirname(repoRoot); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'fixtures');
    tried.push(candidate);
    if (existsSync(candidate)) return path.join(candidate, ...segments);
    if (dir === path.dirname(dir)) break;
  }
  throw new Error(`shared fixtures not found; looked in ${tried.join(', ')}`);
}
