/**
 * "No application named "gustbook". Did you mean guestbook? · `/sync apps` lists them." — for any subcommand
 * that names an application the catalog does not know (after reading the Applications again).
 */
import { closestNames } from '../../engine/index.js';
import type { SlackMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn, truncate } from '../messages/format.js';
import type { ApplicationCatalog } from '../ports.js';

/** Whether the catalog knows `name`, reading the Applications again once (catalog.refresh) when it does not. */
export async function isKnownApplication(catalog: ApplicationCatalog, name: string): Promise<boolean> {
  if (catalog.describe(name)) return true;
  await catalog.refresh?.();
  return catalog.describe(name) !== undefined;
}

export function unknownApplicationBlocks(
  catalog: ApplicationCatalog,
  name: string,
  usage: string,
): SlackMessage {
  const suggestion = closestNames(name, catalog.names(), 1)[0];
  return commandErrorBlocks({
    problem: `No application named "${escapeMrkdwn(truncate(name, 100))}".`,
    hint: '`/sync apps` lists them.',
    usage,
    ...(suggestion ? { suggestion } : {}),
  });
}
