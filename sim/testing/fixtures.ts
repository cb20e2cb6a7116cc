/**
 * Access to the shared fixtures (../shared/fixtures relative to the repository root) for tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../store/kube-object.js';

/** The nearest `shared/fixtures` above the repository (`../shared` from a checkout, `../../shared` from a worktree). */
function findFixtures(): string {
  let dir = path.resolve(import.meta.dirname, '../..');
  for (let i = 0; i < 4; i += 1) {
    dir = path.dirname(dir);
    const candidate = path.join(dir, 'shared/fixtures');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`shared/fixtures not found above ${import.meta.dirname}`);
}

export const FIXTURES = findFixtures();

/** Every non-empty YAML document of a fixture file, e.g. `argo-cd-e2e/hook/pod.yaml`. */
export function loadFixture(relative: string): KubeObject[] {
  const docs = parseAllDocuments(readFileSync(path.join(FIXTURES, relative), 'utf8'));
  for (const doc of docs)
    if (doc.errors.length > 0) throw new Error(`${relative}: ${doc.errors[0]?.message}`);
  return docs.map((d) => d.toJS() as KubeObject | null).filter((d): d is KubeObject => d !== null);
}
