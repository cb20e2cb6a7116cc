/**
 * Slack mention markup for the ids wavesync.yaml names: users `<@U…>`, user groups `<!subteam^S…>`, and the
 * special mentions `<!here>` / `<!channel>`.
 */
import type { Principals } from '../settings/index.js';

/** Mention markup for one id. */
export function mentionOf(id: string): string {
  if (id === 'here' || id === 'channel') return `<!${id}>`;
  if (id.startsWith('S')) return `<!subteam^${id}>`;
  return `<@${id}>`;
}

/** `<@U1>, <!subteam^S1>`; `nobody` when empty. */
export function describePrincipals(principals: Principals): string {
  const ids = [...principals.users, ...principals.groups];
  return ids.length === 0 ? 'nobody' : ids.map(mentionOf).join(', ');
}
