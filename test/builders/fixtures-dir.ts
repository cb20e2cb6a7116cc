/**
 * The shared fixtures folder (`../shared/fixtures` next to the repository). Worktrees live one level deeper
 * (`/work/wt/<name>`), so the parent of the parent is tried as well.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export const FIXTURES_DIR =
  [path.resolve(ROOT, '../shared/fixtures'), path.resolve(ROOT, '../../shared/fixtures')].find((dir) =>
    existsSync(dir),
  ) ?? path.resolve(ROOT, '../shared/fixtures');

/** Absolute path of a fixture folder or file, e.g. `fixture('argo-cd-e2e/hook')`. */
export function fixture(relative: string): string {
  return path.join(FIXTURES_DIR, relative);
}
