/**
 * `--revision` on an Application whose source is a local folder (empty `repoURL`) is an error, as in the CLI
 * (src/cli/plan-application.ts `loadApplication`): the folder has no revisions, its content is what syncs. Checked
 * by `/sync <app>` and `/sync diff <app>` before anything is posted or queued.
 */
import type { SyncOperation } from '../../domain/index.js';
import { escapeMrkdwn } from '../messages/format.js';
import type { ApplicationCatalog } from '../ports.js';

/** The problem to show (mrkdwn), or undefined when there is no `--revision` or the source has revisions. */
export function localRevisionProblem(
  catalog: Pick<ApplicationCatalog, 'describe'>,
  application: string,
  operation: Pick<SyncOperation, 'revision'>,
): string | undefined {
  const { revision } = operation;
  if (revision === undefined) return undefined;
  const source = catalog.describe(application)?.source;
  if (typeof source !== 'object' || source.repoURL !== '') return undefined;
  return (
    `\`--revision ${escapeMrkdwn(revision)}\`: *${escapeMrkdwn(application)}* has a local folder as its source, ` +
    "which has no revisions. Drop `--revision`: the folder's content is what syncs."
  );
}
