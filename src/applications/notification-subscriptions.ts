/**
 * Notification subscriptions as Argo CD's notifications controller reads them (notifications-engine,
 * `pkg/subscriptions/annotations.go`): an Application annotation
 * `notifications.argoproj.io/subscribe.<trigger>.<service>: <recipient>[;<recipient>…]` subscribes the recipients
 * (Slack channels for the `slack` service) to one trigger; `notifications.argoproj.io/subscribe.<service>` (no
 * trigger) to every trigger. Recipients are separated by `;` or `,` and trimmed; empty ones are skipped.
 * The YAML annotation `notifications.argoproj.io/subscriptions` is read too, in notifications-engine's form (a list
 * of `{trigger: [..], destinations: [{service: slack, recipients: [..]}]}`) and in the form of argocd-notifications'
 * default subscriptions (`{triggers: [..], recipients: [slack:<channel>, ..]}`); an entry without triggers subscribes
 * to every trigger. A malformed annotation or entry is a warning, never an error: the rest keeps working.
 * wavesync posts to Slack only: another service (email, teams, …) is ignored with a warning, and so is a trigger
 * wavesync does not know (Argo CD's catalog has more, e.g. `on-sync-status-unknown`), so a typo is never silent.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
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
const SUBSCRIBE_PREFIX = 'notifications.argoproj.io/subscribe.';

/** The YAML annotation (notifications-engine `pkg/subscriptions/annotations.go`). */
const SUBSCRIPTIONS_ANNOTATION = 'notifications.argoproj.io/subscriptions';

/** Channels per trigger. */
export type Subscriptions = ReadonlyMap<NotificationTrigger, readonly string[]>;

export interface ParsedSubscriptions {
  subscriptions: Subscriptions;
  /** One sentence per ignored annotation (unknown trigger, other service, no recipients). */
  warnings: string[];
}

function isNotificationTrigger(name: string): name is NotificationTrigger {
  return (NOTIFICATION_TRIGGERS as readonly string[]).includes(name);
}

/** Split `a;b, c` into recipients, as notifications-engine's ParseRecipients does. */
function parseRecipients(value: string): string[] {
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
  const subscribe = (triggers: readonly NotificationTrigger[], recipients: readonly string[]) => {
    for (const t of triggers) byTrigger.set(t, unique([...(byTrigger.get(t) ?? []), ...recipients]));
  };
  for (const [key, value] of Object.entries(annotations)) {
    if (key === SUBSCRIPTIONS_ANNOTATION) {
      for (const entry of parseSubscriptionsYaml(value, warnings)) subscribe(entry.triggers, entry.channels);
      continue;
    }
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
    subscribe(trigger === '' ? NOTIFICATION_TRIGGERS : [trigger as NotificationTrigger], recipients);
  }
  return { subscriptions: byTrigger, warnings };
}

const names = z.union([z.string().transform((s) => [s]), z.array(z.string())]);
/** One entry of the annotation: notifications-engine's form and argocd-notifications' default-subscription form. */
const subscriptionEntry = z.strictObject({
  trigger: names.optional(),
  triggers: names.optional(),
  destinations: z.array(z.strictObject({ service: z.string(), recipients: names })).optional(),
  recipients: names.optional(),
});

/**
 * The Slack channels and known triggers of each entry of the `notifications.argoproj.io/subscriptions` YAML;
 * a warning (pushed to `warnings`) per malformed annotation or entry, other service, unknown trigger.
 */
function parseSubscriptionsYaml(
  value: string,
  warnings: string[],
): { triggers: NotificationTrigger[]; channels: string[] }[] {
  let document: unknown;
  try {
    document = parseYaml(value);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    warnings.push(`${SUBSCRIPTIONS_ANNOTATION}: not valid YAML (${reason}); ignored`);
    return [];
  }
  if (document === null || document === undefined) return [];
  if (!Array.isArray(document)) {
    warnings.push(`${SUBSCRIPTIONS_ANNOTATION}: expected a list of subscriptions; ignored`);
    return [];
  }
  return document.flatMap((raw, index) => {
    const at = `${SUBSCRIPTIONS_ANNOTATION}[${index}]`;
    const parsed = subscriptionEntry.safeParse(raw);
    if (!parsed.success) {
      const problem = parsed.error.issues
        .map((i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`)
        .join('; ');
      warnings.push(`${at}: ${problem}; ignored`);
      return [];
    }
    const entry = parsed.data;
    const channels: string[] = [];
    for (const destination of entry.destinations ?? []) {
      if (destination.service !== 'slack') {
        warnings.push(
          `${at}: service "${destination.service}" is not supported (wavesync posts to slack only); ignored`,
        );
      } else channels.push(...destination.recipients.flatMap(parseRecipients));
    }
    for (const recipient of (entry.recipients ?? []).map((r) => r.trim()).filter((r) => r !== '')) {
      const colon = recipient.indexOf(':');
      if (colon < 0) {
        warnings.push(`${at}: recipient "${recipient}" names no service (write slack:${recipient}); ignored`);
      } else if (recipient.slice(0, colon).trim() !== 'slack') {
        warnings.push(
          `${at}: recipient "${recipient}" is not supported (wavesync posts to slack only); ignored`,
        );
      } else channels.push(...parseRecipients(recipient.slice(colon + 1)));
    }
    const named = [...(entry.trigger ?? []), ...(entry.triggers ?? [])].map((t) => t.trim());
    const triggers: NotificationTrigger[] = [];
    for (const trigger of named) {
      if (isNotificationTrigger(trigger)) triggers.push(trigger);
      else
        warnings.push(
          `${at}: unknown trigger "${trigger}" (known: ${NOTIFICATION_TRIGGERS.join(', ')}); ignored`,
        );
    }
    if (channels.length === 0) return [];
    // No trigger named: every trigger, as `subscribe.slack` without one.
    return [{ triggers: named.length === 0 ? [...NOTIFICATION_TRIGGERS] : triggers, channels }];
  });
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
