/**
 * Access to the shared fixtures (../shared/fixtures relative to the repository root) for tests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { sharedFixturesDir } from '../../test/support/shared-fixtures.js';
import type { KubeObject } from '../store/kube-object.js';

export const FIXTURES = sharedFixturesDir();

/** Every non-empty YAML document of a fixture file, e.g. `argo-cd-e2e/hook/pod.yaml`. */
export function loadFixture(relative: string): KubeObject[] {
  const docs = parseAllDocuments(readFileSync(path.join(FIXTURES, relative), 'utf8'));
  for (const doc of docs)
    if (doc.errors.length > 0) throw new Error(`${relative}: ${doc.errors[0]?.message}`);
  return docs.map((d) => d.toJS() as KubeObject | null).filter((d): d is KubeObject => d !== null);
}
