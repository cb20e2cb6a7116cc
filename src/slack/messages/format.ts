/**
 * Text formatting shared by the message builders: durations, ordinals, mrkdwn escaping, truncation.
 */
import type { ApplicationDestination, ApplicationSource, HealthStatus, TaskRef } from '../../domain/index.js';

/** A duration for prose: `0.2 s`, `31 s`, `1:07`, `1:02:03` (input in ms; negative treated as 0). */
export function formatDuration(ms: number): string {
  const safe = Math.max(0, ms);
  if (safe < 10_000) return `${(Math.round(safe / 100) / 10).toString()} s`;
  if (safe < 60_000) return `${Math.round(safe / 1000)} s`;
  return formatClock(safe);
}

/** A clock-style elapsed time for headers: `0:42`, `1:07`, `1:02:03` (input in ms). */
export function formatClock(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st. */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** Escape the three characters Slack mrkdwn treats as control characters (`&`, `<`, `>`). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cut `text` to at most `max` characters, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** `Deployment/web`, escaped for mrkdwn. */
export function taskName(task: Pick<TaskRef, 'kind' | 'name'>): string {
  return escapeMrkdwn(`${task.kind}/${task.name}`);
}

/** Up to `max` names joined by commas, then `and N more`. */
export function listNames(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** `n thing` / `n things`. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/** `Healthy`, or `Degraded: ImagePullBackOff` when the status has a message. */
export function formatHealth(health: HealthStatus): string {
  return health.message ? `${health.status}: ${escapeMrkdwn(health.message)}` : health.status;
}

/** A Slack user mention for an id (`<@U123>`); any other initiator id (e.g. `wavesync (selfHeal)`) as text. */
export function mention(userId: string): string {
  // Not a Slack user id: a system initiator such as `wavesync (selfHeal)`, shown as text.
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

/** Join lines into chunks of at most `maxChars`, at most `maxChunks` chunks (the rest is dropped). */
export function packLines(lines: Iterable<string>, maxChars: number, maxChunks: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of lines) {
    if (current && current.length + 1 + line.length > maxChars) {
      chunks.push(current);
      if (chunks.length === maxChunks) return chunks;
      current = '';
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** `in-cluster/guestbook` from an Application destination (Argo CD's in-cluster URL shown as `in-cluster`). */
export function formatDestination(d: ApplicationDestination | string): string {
  if (typeof d === 'string') return d;
  const cluster = d.name ?? (d.server === undefined || d.server === IN_CLUSTER ? 'in-cluster' : d.server);
  return d.namespace ? `${cluster}/${d.namespace}` : cluster;
}

/** `https://github.com/argoproj/argocd-example-apps#guestbook@HEAD` (or `chart NAME`) from an Application source. */
export function formatSource(s: ApplicationSource | string): string {
  if (typeof s === 'string') return s;
  const where = s.chart ? ` chart ${s.chart}` : s.path ? `#${s.path}` : '';
  return `${s.repoURL}${where}${s.targetRevision ? `@${s.targetRevision}` : ''}`;
}

const IN_CLUSTER = 'https://kubernetes.default.svc';
