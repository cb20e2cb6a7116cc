/**
 * Post a sync's header (`received`) in `channel` for a sync the bot starts on its own (a self-heal, an automated
 * sync of a new revision), before it is queued; resolves with its thread, the job's report target.
 */
import type { WebClient } from '@slack/web-api';
import type { ReportTarget } from '../../queue/index.js';
import { headerViewOf } from '../commands/header-view.js';
import { syncHeaderBlocks } from '../messages/sync-header-blocks.js';
import type { ApplicationCatalog } from '../ports.js';

export async function postSyncHeader(
  client: WebClient,
  catalog: ApplicationCatalog,
  channel: string,
  job: Parameters<typeof headerViewOf>[1],
): Promise<ReportTarget> {
  const header = syncHeaderBlocks({ ...headerViewOf(catalog, job), state: { kind: 'received' } });
  const posted = await client.chat.postMessage({ channel, text: header.text, blocks: header.blocks });
  return { channel, threadTs: posted.ts! };
}
