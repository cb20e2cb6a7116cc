/**
 * A selective sync (`--resource`) naming a resource the Application does not contain is refused before anything
 * is posted or queued (Argo CD's CLI likewise refuses a `--resource` filter that matches nothing) — otherwise the
 * sync "Succeeds" having synced nothing. The resources come from the catalog's `resourcesOf` (the rendered
 * manifests at the requested revision). With `--prune` a named resource may exist only live (to be pruned), which
 * the bot cannot see, so the check is skipped; it is also skipped (and logged) when rendering takes longer than
 * `budgetMs`, to keep the ack within Slack's 3 s.
 */
import type { SyncOperation, SyncOperationResource } from '../../domain/index.js';
import { escapeMrkdwn } from '../messages/format.js';
import type { SlackAppDeps } from './command-context.js';

const format = (r: SyncOperationResource) =>
  `${r.group}:${r.kind}:${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** The problem to show (named resources not in the Application), or undefined when all are there / unknown. */
export async function missingResourcesProblem(
  deps: Pick<SlackAppDeps, 'catalog' | 'logger'>,
  application: string,
  operation: SyncOperation,
  budgetMs = 2000,
): Promise<string | undefined> {
  const named = operation.resources ?? [];
  const resourcesOf = deps.catalog.resourcesOf;
  if (named.length === 0 || operation.prune || !resourcesOf) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), budgetMs);
  });
  let present: readonly SyncOperationResource[] | undefined;
  try {
    present = await Promise.race([resourcesOf(application, operation.revision), late]);
  } catch (err) {
    deps.logger?.warn({ err, application }, '--resource not checked: the manifests could not be rendered');
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  if (!present) {
    deps.logger?.warn({ application, budgetMs }, '--resource not checked: rendering took too long');
    return undefined;
  }
  const missing = named.filter(
    (r) =>
      !present.some(
        (p) =>
          p.group === r.group &&
          p.kind === r.kind &&
          p.name === r.name &&
          (!r.namespace || r.namespace === p.namespace),
      ),
  );
  if (missing.length === 0) return undefined;
  const list = missing.map((r) => `\`${escapeMrkdwn(format(r))}\``).join(', ');
  return `${escapeMrkdwn(application)} has no ${list} in its manifests${operation.revision ? ` at ${escapeMrkdwn(operation.revision)}` : ''}, so nothing was synced. \`/sync status ${escapeMrkdwn(application)}\` or its repository shows what it contains.`;
}
