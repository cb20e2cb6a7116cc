/**
 * The ApplicationSets of one file, generated offline (`wavesync appset <file>`): what Argo CD would create,
 * without a server. Clusters come from wavesync.yaml `clusters:`, git repositories through the git cache.
 */
import { readFile } from 'node:fs/promises';
import { BotError } from '../../domain/index.js';
import type { Settings } from '../../settings/index.js';
import { gitRepositoryCacheFor } from '../applications-from-settings.js';
import { parseApplicationFile } from '../parse-applications.js';
import {
  ApplicationSetError,
  type GeneratedApplications,
  generateApplications,
  generatorClusters,
} from './generate-applications.js';

/**
 * Generate every ApplicationSet of `file`.
 * @throws BotError invalid_config (unreadable file), invalid_manifest (no ApplicationSet, an invalid one, or one
 *   that fails to generate — the message names the ApplicationSet, the field and the cause).
 */
export async function generateFile(
  file: string,
  settings: Settings,
  env: Readonly<Record<string, string | undefined>>,
): Promise<GeneratedApplications[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BotError('invalid_config', `cannot read ${file}: ${(error as Error).message}`, {
      fix: 'pass the path of a file holding an ApplicationSet',
    });
  }
  const parsed = parseApplicationFile(text, file);
  if (parsed.problems.length > 0) {
    throw new BotError('invalid_manifest', `invalid ApplicationSet:\n${parsed.problems.join('\n')}`);
  }
  if (parsed.applicationSets.length === 0) {
    throw new BotError('invalid_manifest', `no ApplicationSet in ${file}`, {
      fix: 'the file needs a document with apiVersion: argoproj.io/v1alpha1 and kind: ApplicationSet',
    });
  }
  const git = gitRepositoryCacheFor(settings, { env });
  const clusters = generatorClusters(settings);
  const out: GeneratedApplications[] = [];
  for (const set of parsed.applicationSets) {
    try {
      out.push(await generateApplications(set, { clusters, git }));
    } catch (error) {
      if (error instanceof ApplicationSetError) throw new BotError('invalid_manifest', error.message);
      throw error;
    }
  }
  return out;
}
