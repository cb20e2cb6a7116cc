/**
 * `environments:` in wavesync.yaml — per environment: who may request a sync, whether production-style approval
 * is required and by whom, allowed channels and revisions, change-freeze windows and where failures are announced.
 * Strict like the rest of the file: an unknown key, a bad cron, regex or time zone is an error naming its key.
 *
 * ```yaml
 * environments:
 *   production:
 *     destinations: [{ namespace: prod }]        # Applications whose destination matches (besides the label)
 *     requireApproval: true
 *     approvers: { users: [U0SAM], groups: [S0SRELEADS] }
 *     requiredApprovals: 1                      # distinct approvers needed (default 1)
 *     allowSelfApproval: false                  # default false
 *     approvalExpiryMinutes: 30                 # default 30
 *     channels: [C0DEPLOYS]                     # where /sync may be run (default: any channel)
 *     requesters: { groups: [S0DEVS] }          # who may request (default: anyone in an allowed channel)
 *     allowedRevisions: [main, "v*", "/^release-[0-9]+$/"]   # glob, or /regex/ (default: any)
 *     freezeWindows:
 *       - { name: quarter-end, cron: "0 18 * * 5", durationMinutes: 3840, timezone: UTC }
 *     notifications: { channel: C0ALERTS, mention: [S0ONCALL] }
 *     subscriptions: { on-deployed: [C0DEPLOYS], on-sync-failed: [C0TEAM] } # argocd-notifications triggers
 *     autoSync: false                           # selfHeal may sync by itself (default: !requireApproval)
 *     permissions:                              # who may do what (defaults: docs/approvals.md, "Who may do what")
 *       cancel: { groups: [S0SRE] }             # a grant, or a list of grants (Argo CD AppProject roles)
 *     applications:                             # per-Application overrides of `permissions`
 *       payments: { permissions: { sync: { groups: [S0PAYMENTS] } } }
 *     resourceActions:                          # per resource action (Argo CD's name): approval or not
 *       restart: { requireApproval: false }     # default: the environment's requireApproval
 * ```
 */
import cronParser from 'cron-parser';
import { z } from 'zod';

const nonEmpty = z.string().min(1);
const userId = z.string().regex(/^[UW][A-Z0-9]+$/, 'must be a Slack user id (U… or W…)');
const groupId = z.string().regex(/^S[A-Z0-9]+$/, 'must be a Slack user group id (S…)');
export const channelId = z.string().regex(/^[CGD][A-Z0-9]+$/, 'must be a Slack channel id (C…, G… or D…)');
const mentionId = z
  .string()
  .regex(/^([UW][A-Z0-9]+|S[A-Z0-9]+|here|channel)$/, 'must be a user id, a user group id, here or channel');

/** Slack users and user groups (membership read with usergroups.users.list). */
const PrincipalsSchema = z.strictObject({
  users: z.array(userId).default([]),
  groups: z.array(groupId).default([]),
});

/** True when `text` is written as a regular expression (`/…/`) rather than a glob. */
export function isRegexRule(text: string): boolean {
  return text.length > 2 && text.startsWith('/') && text.endsWith('/');
}

const revisionRule = nonEmpty.superRefine((rule, ctx) => {
  if (!isRegexRule(rule)) return;
  try {
    new RegExp(rule.slice(1, -1));
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(error as Error).message}` });
  }
});

const cronExpression = nonEmpty.superRefine((cron, ctx) => {
  try {
    cronParser.parseExpression(cron, { tz: 'UTC' });
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `invalid cron expression: ${(error as Error).message}` });
  }
});

const timeZone = nonEmpty.refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'unknown time zone (use an IANA name such as UTC or Europe/Berlin)' },
);

/**
 * The actions `permissions:` names (Argo CD RBAC's `sync`, `delete`, … for `applications`, plus wavesync's own):
 * `/sync <app>`, `/sync <app> --dry-run`, `/sync cancel` and the Cancel button, `/sync delete` and its Delete
 * button, Approve/Reject, rollback, `/sync audit`, `/sync confirm-prune`, `read`: `/sync history` and
 * `/sync status` (Argo CD RBAC's `get`), `view`: `/sync resources`, `/sync logs` and `/sync events` (Argo CD's
 * `get` and `logs`), and `action`: resource actions, `/sync action` and its buttons (Argo CD's `action/*`).
 */
const ACTIONS = [
  'sync',
  'dry-run',
  'cancel',
  'delete',
  'approve',
  'rollback',
  'audit',
  'prune-confirm',
  'read',
  'view',
  'action',
] as const;

/**
 * One grant (an Argo CD AppProject role): who (`users`, members of `groups`; both omitted = anyone) and where
 * (`channels`; omitted = the environment's `channels`, empty = any channel).
 */
const GrantSchema = z.strictObject({
  users: z.array(userId).optional(),
  groups: z.array(groupId).optional(),
  channels: z.array(channelId).optional(),
});

/** Action → one grant or a list of grants (any grant allows). An action not listed keeps its default. */
const PermissionsSchema = z.partialRecord(
  z.enum(ACTIONS),
  // One grant is read as a list of one (so a bad id is reported at its key, not as "Invalid input").
  z.preprocess(
    (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? [v] : v),
    z.array(GrantSchema).min(1),
  ),
);

/** `applications:` of an environment: per-Application overrides (action by action) of `permissions`. */
const ApplicationOverridesSchema = z.record(
  z.string().min(1),
  z.strictObject({ permissions: PermissionsSchema.default({}) }),
);

/**
 * `resourceActions:` of an environment: resource action name (Argo CD's: `restart`, `resume`, `suspend`, …) → whether
 * running it needs an approval like a sync. An action not listed follows the environment's `requireApproval`.
 */
const ResourceActionsSchema = z.record(
  z.string().regex(/^[A-Za-z0-9][-A-Za-z0-9_.]*$/, 'must be a resource action name (e.g. restart)'),
  z.strictObject({ requireApproval: z.boolean() }),
);

/** A change freeze: starts at every time `cron` matches (in `timezone`) and lasts `durationMinutes`. */
const FreezeWindowSchema = z.strictObject({
  name: nonEmpty,
  cron: cronExpression,
  durationMinutes: z.number().int().positive(),
  timezone: timeZone.default('UTC'),
});

/** An Argo CD destination rule: every given field must equal the Application's spec.destination field. */
const DestinationRuleSchema = z
  .strictObject({ server: nonEmpty.optional(), name: nonEmpty.optional(), namespace: nonEmpty.optional() })
  .refine((d) => d.server !== undefined || d.name !== undefined || d.namespace !== undefined, {
    message: 'needs server, name or namespace',
  });

const NotificationsSchema = z.strictObject({
  /** Channel that gets failure and recovery notices. */
  channel: channelId,
  /** Who is mentioned in failure notices: user ids, user group ids, `here` or `channel`. */
  mention: z.array(mentionId).default([]),
});

/** One environment's settings. */
export const EnvironmentSchema = z
  .strictObject({
    destinations: z.array(DestinationRuleSchema).default([]),
    requireApproval: z.boolean().default(false),
    approvers: PrincipalsSchema.prefault({}),
    requiredApprovals: z.number().int().min(1).default(1),
    allowSelfApproval: z.boolean().default(false),
    approvalExpiryMinutes: z.number().int().positive().default(30),
    channels: z.array(channelId).default([]),
    requesters: PrincipalsSchema.optional(),
    allowedRevisions: z.array(revisionRule).default([]),
    freezeWindows: z.array(FreezeWindowSchema).default([]),
    notifications: NotificationsSchema.optional(),
    /**
     * Notification subscriptions of every Application of the environment (argocd-notifications' default
     * subscriptions): trigger (`on-deployed`, `on-sync-failed`, …) → Slack channels (ids or names). Added to each
     * Application's `notifications.argoproj.io/subscribe.<trigger>.slack` annotations. An unknown trigger is
     * warned about at start and ignored (src/applications/notification-subscriptions.ts).
     */
    subscriptions: z.record(z.string(), z.array(nonEmpty)).default({}),
    /**
     * May drift detection sync this environment's Applications by itself (`syncPolicy.automated.selfHeal`)?
     * Default: yes, unless `requireApproval` (an automatic sync would bypass the approval).
     */
    autoSync: z.boolean().optional(),
    /** Who may do what, per action (defaults in permissions.ts / docs/approvals.md). */
    permissions: PermissionsSchema.default({}),
    /** Per-Application overrides of `permissions`, by Application name. */
    applications: ApplicationOverridesSchema.default({}),
    /** Per resource action: `requireApproval` (default: the environment's), see resourceActionNeedsApproval. */
    resourceActions: ResourceActionsSchema.default({}),
  })
  .superRefine((env, ctx) => {
    if (env.requireApproval && env.autoSync === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['autoSync'],
        message: 'cannot be true when requireApproval is true (an automatic sync would bypass the approval)',
      });
    }
    const { users, groups } = env.approvers;
    if (env.requireApproval && users.length === 0 && groups.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['approvers'],
        message: 'needs at least one user or group when requireApproval is true',
      });
    }
    if (!env.requireApproval && users.length === 0 && groups.length === 0) {
      for (const [name, action] of Object.entries(env.resourceActions)) {
        if (!action.requireApproval) continue;
        ctx.addIssue({
          code: 'custom',
          path: ['resourceActions', name, 'requireApproval'],
          message: 'needs approvers (at least one user or group) to approve the action',
        });
      }
    }
    if (groups.length === 0 && users.length > 0 && env.requiredApprovals > users.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['requiredApprovals'],
        message: `needs ${env.requiredApprovals} distinct approvers but approvers lists ${users.length}`,
      });
    }
  });

/** `environments:` — environment name → its settings. */
export const EnvironmentsSchema = z.record(
  z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'environment names are lowercase DNS labels'),
  EnvironmentSchema,
);

export type EnvironmentSettings = z.infer<typeof EnvironmentSchema>;

/**
 * Does running resource action `action` in an environment with `env` need an approval? Its `resourceActions` entry
 * when there is one, else the environment's `requireApproval`.
 */
export function resourceActionNeedsApproval(
  env: Pick<EnvironmentSettings, 'requireApproval' | 'resourceActions'>,
  action: string,
): boolean {
  return Object.hasOwn(env.resourceActions, action)
    ? (env.resourceActions[action]?.requireApproval ?? env.requireApproval)
    : env.requireApproval;
}
export type Action = (typeof ACTIONS)[number];
export type Grant = z.infer<typeof GrantSchema>;
export type Principals = z.infer<typeof PrincipalsSchema>;
export type FreezeWindow = z.infer<typeof FreezeWindowSchema>;
export type DestinationRule = z.infer<typeof DestinationRuleSchema>;
