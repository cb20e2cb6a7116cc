/** `/sync audit <app>`: the newest audit entries, one line each, with who, what and when. */

import { displayRevision } from '../../domain/index.js';
import type { AuditRecord } from '../../environments/index.js';
import { context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, mention, packLines, plural, truncate } from './format.js';

export function auditLogBlocks(application: string, records: readonly AuditRecord[]): SlackMessage {
  const title = `📜 Audit log of *${escapeMrkdwn(application)}* (newest first)`;
  if (records.length === 0)
    return { text: plainFallback(`${title}: no entries`), blocks: [section(`${title}\n_no entries yet_`)] };
  const lines = records.map(auditLine);
  const chunks = packLines(lines, 2900, 8);
  return {
    text: plainFallback(`${title}: ${plural(records.length, 'entry', 'entries')}`),
    blocks: [
      section(title),
      ...chunks.map((chunk) => section(chunk)),
      context(`${plural(records.length, 'entry', 'entries')} shown`),
    ],
  };
}

function auditLine(record: AuditRecord): string {
  const who = record.userId ? ` ${mention(record.userId)}` : '';
  const when = `${record.at.slice(0, 10)} ${record.at.slice(11, 19)} UTC`;
  const details = [
    record.operation === 'delete' ? '🗑 delete' : '',
    record.resourceAction ? `⚙️ ${escapeMrkdwn(record.resourceAction)}` : '',
    record.trigger ? `via ${escapeMrkdwn(record.trigger)}` : '',
    record.revision ? `revision \`${escapeMrkdwn(displayRevision(record.revision))}\`` : '',
    record.phase ? escapeMrkdwn(record.phase) : '',
    record.breakGlass ? `break-glass: ${escapeMrkdwn(record.breakGlass)}` : '',
    record.reason ? escapeMrkdwn(truncate(record.reason, 200)) : '',
  ].filter(Boolean);
  return `\`${when}\` *${record.type}*${who}${details.length > 0 ? ` — ${details.join(' · ')}` : ''}`;
}
