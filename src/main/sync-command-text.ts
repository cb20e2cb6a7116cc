/** The `/sync` command as a user would have typed it, rebuilt from a queued request (for the Slack header). */
import type { SyncOperation } from '../domain/index.js';

export function syncCommandText(application: string, operation: SyncOperation): string {
  const parts = ['/sync', application];
  if (operation.revision !== undefined) parts.push('--revision', operation.revision);
  if (operation.prune) parts.push('--prune');
  if (operation.dryRun) parts.push('--dry-run');
  for (const r of operation.resources ?? []) parts.push('--resource', `${r.group}:${r.kind}:${r.name}`);
  return parts.join(' ');
}
