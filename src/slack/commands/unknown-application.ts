/**
 * "No application named "gustbook". Did you mean guestbook? · `/sync apps` lists them." — for any subcommand
 * that names an application the catalog does not know.
 */
import { closestNames } from '../../apps/closest-names.js';
import type { SlackMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import type { ApplicationCatalog } from '../ports.js';

export function unknownApplicationBlocks(
  catalog: ApplicationCatalog,
  name: string,
  usage: string,
): SlackMessage {
  const suggestion = closestNames(name, catalog.names(), 1)[0];
  return commandErrorBlocks({
    problem: `No application named "${escapeMrkdwn(name)}".`,
    hint: '`/sync apps` lists them.',
    usage,
    ...(suggestion ? { suggestion } : {}),
  });
}
