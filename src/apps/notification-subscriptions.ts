/**
 * Notification subscriptions as Argo CD's notifications controller reads them (notifications-engine,
 * `pkg/subscriptions/annotations.go`): an Application annotation
 * `notifications.argoproj.io/subscribe.<trigger>.<service>: <recipient>[;<recipient>…]` subscribes the recipients
 * (Slack channels for the `slack` service) to one trigger; `notifications.argoproj.io/subscribe.<service>` (no
 * trigger) to every trigger. Recipients are separated by `;` or `,` and trimmed; empty ones are skipped.
 * wavesync posts to Slack only: another service (email, teams, …) is ignored with a warning, and so is a trigger
 * wavesync does not know (Argo CD's catalog has more, e.g. `on-sync-status-unknown`), so a typo is never silent.
 */
import type { Application } from '../domain/index.js';

/** The triggers wavesync fires, named as in Argo CD's notifications catalog (plus `on-rollback`). */
export const NOTIFICATION_TRIGGERS = [
  'on-sync-running',
  'on-sync-succeeded',
  'on-sync-failed',
  'on-health-degraded',
  'on-deployed',
  'on-rollback',
] as const;

export type NotificationTrigger = (typeof NOTIFICATION_TRIGGERS)[number];

/** The annotation prefix of subscriptions (Argo CD: `notifications.argoproj.io/subscribe.`). */
export const SUBSCRIBE_PREFIX = 'notifications.argoproj.io/subscribe.';

/** Channels per trigger. */
export type Subscriptions = ReadonlyMap<NotificationTrigger, readonly string[]>;

export interface ParsedSubscriptions {
  subscriptions: Subscriptions;
  /** One sentence per ignored annotation (unknown trigger, other service, no recipients). */
  warnings: string[];
}

export function isNotificationTrigger(name: string): name is NotificationTrigger {
  return (NOTIFICATION_TRIGGERS as readonly string[]).includes(name);
}

/** Split `a;b, c` into recipients, as notifications-engine's ParseRecipients does. */
export function parseRecipients(value: string): string[] {
  return value
    .split(/[;,]/)
    .map((r) => r.trim())
    .filter((r) => r !== '');
}

/** The Slack subscriptions in `annotations`, and a warning for each annotation that subscribes to nothing. */
export function parseSubscriptionAnnotations(
  annotations: Readonly<Record<string, string>>,
): ParsedSubscriptions {
  const byTrigger = new Map<NotificationTrigger, string[]>();
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(annotations)) {
    if (!key.startsWith(SUBSCRIBE_PREFIX)) continue;
    const parts = key.slice(SUBSCRIBE_PREFIX.length).split('.');
    const [trigger, service] = parts.length >= 2 ? [parts[0] ?? '', parts[1] ?? ''] : ['', parts[0] ?? ''];
    if (service !== 'slack') {
      warnings.push(`${key}: service "${service}" is not supported (wavesync posts to slack only); ignored`);
      continue;
    }
    if (trigger !== '' && !isNotificationTrigger(trigger)) {
      warnings.push(
        `${key}: unknown trigger "${trigger}" (known: ${NOTIFICATION_TRIGGERS.join(', ')}); ignored`,
      );
      continue;
    }
    const recipients = parseRecipients(value);
    if (recipients.length === 0) {
      warnings.push(`${key}: no channel named; ignored`);
      continue;
    }
    for (const t of trigger === '' ? NOTIFICATION_TRIGGERS : [trigger as NotificationTrigger]) {
      byTrigger.set(t, unique([...(byTrigger.get(t) ?? []), ...recipients]));
    }
  }
  return { subscriptions: byTrigger, warnings };
}

/**
 * The environment defaults of wavesync.yaml (`environments.<env>.subscriptions`, trigger → channels) as
 * subscriptions, and a warning per unknown trigger (ignored, not an error: the rest keeps working).
 */
export function parseEnvironmentSubscriptions(
  environment: string,
  configured: Readonly<Record<string, readonly string[]>> | undefined,
): ParsedSubscriptions {
  const byTrigger = new Map<NotificationTrigger, string[]>();
  const warnings: string[] = [];
  for (const [trigger, channels] of Object.entries(configured ?? {})) {
    if (!isNotificationTrigger(trigger)) {
      warnings.push(
        `environments.${environment}.subscriptions.${trigger}: unknown trigger (known: ${NOTIFICATION_TRIGGERS.join(', ')}); ignored`,
      );
      continue;
    }
    byTrigger.set(trigger, unique([...channels]));
  }
  return { subscriptions: byTrigger, warnings };
}

/** The channels subscribed to `trigger`: the Application's annotations and its environment's defaults, once each. */
export function subscribedChannels(
  trigger: NotificationTrigger,
  ...sources: (Subscriptions | undefined)[]
): string[] {
  return unique(sources.flatMap((s) => [...(s?.get(trigger) ?? [])]));
}

/** The warnings of an Application's subscription annotations, prefixed with its name. */
export function subscriptionWarnings(app: Pick<Application, 'name' | 'annotations'>): string[] {
  return parseSubscriptionAnnotations(app.annotations).warnings.map(
    (w) => `Application ${app.name}: metadata.annotations.${w}`,
  );
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
