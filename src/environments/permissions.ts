/**
 * authorizeAction — the one answer to "may this Slack user do this to this Application from this channel?", for
 * every command and every button (sync, dry-run, cancel, delete, approve/reject, rollback, audit, prune-confirm).
 * The user and channel come from the signed Slack payload only. Rules are `permissions:` of the Application's
 * environment in wavesync.yaml, overridden per Application (`applications.<name>.permissions`), modelled on Argo CD
 * AppProject roles: each action maps to grants (who: users / user groups, anyone when both are omitted; where:
 * channels, the environment's `channels` when omitted, any when empty); any grant that matches allows.
 *
 * Defaults for an action not configured (docs/approvals.md, "Who may do what"):
 * - `sync`: the environment's `requesters` (anyone when unset) in its `channels` (any when unset);
 * - `dry-run`, `delete`, `rollback`: whoever may `sync` the Application;
 * - `approve`: the environment's `approvers`, from any channel;
 * - `audit`: whoever may `approve` (whoever may `sync` when the environment names no approvers);
 * - `prune-confirm`: whoever may `approve` when the environment requires approval, else whoever may `sync`;
 * - `cancel`: whoever may `approve` or `sync`; and the sync's requester always may cancel their own;
 * - `read` (`/sync history`, `/sync status`): anyone in the environment's `channels` (any when unset), and whoever
 *   may `audit`, where they may;
 * - `view` (`/sync resources`, `/sync logs`, `/sync events`): whoever may `read`;
 * - `action` (resource actions: restart, scale, …): whoever may `sync`.
 * The environment's own `notifications.channel` is a place to roll back from: a click on a message the bot posted there
 * (its failure notice's Roll back button; `fromBotMessage`, the channel from the signed payload) is allowed for
 * whoever a `rollback` grant names, whatever the grant's `channels` (a notice's button must work where it is posted).
 * An Application in no environment has no rules: everything is allowed. Pure apart from the group look-up it is given;
 * a failed look-up that decides the answer refuses with `membership_unknown` (fail closed, "try again").
 */
import type { Action, EnvironmentSettings, Grant } from '../settings/index.js';
import { describePrincipals } from './principal-mentions.js';

export type { Action } from '../settings/index.js';

export type IsMemberOfAny = (userId: string, groups: readonly string[]) => Promise<boolean>;

export interface ActionContext {
  action: Action;
  application: string;
  /** From the signed payload (`user_id` / `user.id`), never from a button value. */
  userId: string;
  /** The channel the command was typed in / the button was clicked in. */
  channel: string;
  /** `cancel`: who requested the sync being cancelled (they may always cancel their own). */
  requesterId?: string;
  /**
   * A click on a message the bot posted (a button's block_actions payload), not a typed command: a `rollback` from
   * the environment's `notifications.channel` is then allowed wherever its grants are.
   */
  fromBotMessage?: boolean;
}

export type ActionRefusalCode = 'channel_not_allowed' | 'not_permitted' | 'membership_unknown';

export type Authorization = { allowed: true } | { allowed: false; code: ActionRefusalCode; reason: string };

/** One grant with its defaults applied: `anyone` when it names no users or groups; `channels` empty = any. */
export interface ResolvedGrant {
  anyone: boolean;
  users: readonly string[];
  groups: readonly string[];
  channels: readonly string[];
}

/** The environment an Application is in, by name (environmentFor). */
export interface EnvironmentRef {
  name: string;
  settings: EnvironmentSettings;
}

/** The grants of `action` on `application` in `env`: its override, else the environment's, else the default. */
export function grantsFor(env: EnvironmentRef, application: string, action: Action): ResolvedGrant[] {
  const { settings } = env;
  const configured = settings.applications[application]?.permissions[action] ?? settings.permissions[action];
  if (configured) return configured.map((g) => resolveGrant(g, settings.channels));
  const sync = () => grantsFor(env, application, 'sync');
  const approve = () => grantsFor(env, application, 'approve');
  switch (action) {
    case 'sync': {
      const who = settings.requesters;
      return [
        { anyone: !who, users: who?.users ?? [], groups: who?.groups ?? [], channels: settings.channels },
      ];
    }
    case 'dry-run':
    case 'delete':
    case 'rollback':
      return sync();
    case 'approve':
      return [{ anyone: false, ...settings.approvers, channels: [] }];
    case 'audit': {
      const approvers = approve();
      return approvers.some((g) => g.anyone || g.users.length + g.groups.length > 0) ? approvers : sync();
    }
    case 'prune-confirm':
      return settings.requireApproval ? approve() : sync();
    case 'cancel':
      return [...approve(), ...sync()];
    case 'read':
      return [
        { anyone: true, users: [], groups: [], channels: settings.channels },
        ...grantsFor(env, application, 'audit'),
      ];
    case 'view':
      return grantsFor(env, application, 'read');
    case 'action':
      return sync();
  }
}

/** The grants of `grants` that apply in `ctx.channel` (every one on a bot message in the notification channel). */
function grantsIn(
  env: EnvironmentRef,
  grants: readonly ResolvedGrant[],
  ctx: Pick<ActionContext, 'action' | 'channel' | 'fromBotMessage'>,
): readonly ResolvedGrant[] {
  if (isNotificationChannelRollback(env, ctx)) return grants;
  return grants.filter((g) => g.channels.length === 0 || g.channels.includes(ctx.channel));
}

function isNotificationChannelRollback(
  env: EnvironmentRef,
  ctx: Pick<ActionContext, 'action' | 'channel' | 'fromBotMessage'>,
): boolean {
  const alerts = env.settings.notifications?.channel;
  return (
    ctx.action === 'rollback' && ctx.fromBotMessage === true && alerts !== undefined && alerts === ctx.channel
  );
}

/**
 * Whether a Roll back button the bot posts in `channel` can ever be used: some `rollback` grant applies there (see
 * authorizeAction: the notification channel counts) and names someone. False: do not show the button.
 * No environment: true (no rules).
 */
export function rollbackButtonUsable(
  env: EnvironmentRef | undefined,
  application: string,
  channel: string,
): boolean {
  if (!env) return true;
  const grants = grantsFor(env, application, 'rollback');
  return grantsIn(env, grants, { action: 'rollback', channel, fromBotMessage: true }).some(
    (g) => g.anyone || g.users.length + g.groups.length > 0,
  );
}

function resolveGrant(grant: Grant, environmentChannels: readonly string[]): ResolvedGrant {
  return {
    anyone: grant.users === undefined && grant.groups === undefined,
    users: grant.users ?? [],
    groups: grant.groups ?? [],
    channels: grant.channels ?? environmentChannels,
  };
}

/** Decide `ctx` in `env` (undefined: the Application is in no environment, so it is allowed). */
export async function authorizeAction(
  env: EnvironmentRef | undefined,
  ctx: ActionContext,
  isMemberOfAny: IsMemberOfAny,
): Promise<Authorization> {
  if (!env) return { allowed: true };
  if (ctx.action === 'cancel' && ctx.requesterId !== undefined && ctx.requesterId === ctx.userId) {
    return { allowed: true };
  }
  const grants = grantsFor(env, ctx.application, ctx.action);
  const here = grantsIn(env, grants, ctx);
  const subject = `${ctx.application} (${env.name})`;
  if (here.length === 0) {
    const where = unique(grants.flatMap((g) => g.channels)).map((c) => `<#${c}>`);
    return refuse('channel_not_allowed', `${PHRASES[ctx.action].where(subject)} ${where.join(', ')}.`);
  }
  let unknownGroups: string[] = [];
  for (const grant of here) {
    if (grant.anyone || grant.users.includes(ctx.userId)) return { allowed: true };
    if (grant.groups.length === 0) continue;
    try {
      if (await isMemberOfAny(ctx.userId, grant.groups)) return { allowed: true };
    } catch {
      unknownGroups = [...unknownGroups, ...grant.groups];
    }
  }
  if (unknownGroups.length > 0) {
    const groups = describePrincipals({ users: [], groups: unique(unknownGroups) });
    return refuse(
      'membership_unknown',
      `I could not check your membership of ${groups} with Slack, so I cannot tell whether you may ${PHRASES[ctx.action].verb} ${subject}. Try again in a minute.`,
    );
  }
  const who = describePrincipals({
    users: unique(here.flatMap((g) => g.users)),
    groups: unique(here.flatMap((g) => g.groups)),
  });
  const requester = ctx.action === 'cancel' ? ' (and the requester of a sync)' : '';
  // Where anyone may (e.g. `read` in the environment's channels), say so rather than "only these people".
  const open = unique(grants.filter((g) => g.anyone && !here.includes(g)).flatMap((g) => g.channels));
  const elsewhere = open.length > 0 ? ` here; anyone may from ${open.map((c) => `<#${c}>`).join(', ')}` : '';
  return refuse(
    'not_permitted',
    `Only ${who}${requester} may ${PHRASES[ctx.action].verb} ${subject}${elsewhere}.`,
  );
}

const PHRASES: Record<Action, { verb: string; where(subject: string): string }> = {
  sync: { verb: 'sync', where: (s) => `${s} can only be synced from` },
  'dry-run': { verb: 'dry-run', where: (s) => `A dry run of ${s} can only be requested from` },
  cancel: { verb: 'cancel syncs of', where: (s) => `Syncs of ${s} can only be cancelled from` },
  delete: { verb: 'delete', where: (s) => `${s} can only be deleted from` },
  approve: { verb: 'approve syncs of', where: (s) => `Syncs of ${s} can only be approved from` },
  rollback: { verb: 'roll back', where: (s) => `${s} can only be rolled back from` },
  audit: { verb: 'read the audit log of', where: (s) => `The audit log of ${s} can only be read from` },
  'prune-confirm': {
    verb: 'confirm pruning of',
    where: (s) => `Pruning of ${s} can only be confirmed from`,
  },
  read: { verb: 'read the syncs of', where: (s) => `The syncs of ${s} can only be read from` },
  view: {
    verb: 'view the resources, logs and events of',
    where: (s) => `The resources, logs and events of ${s} can only be viewed from`,
  },
  action: { verb: 'run resource actions on', where: (s) => `Resource actions on ${s} can only be run from` },
};

function refuse(code: ActionRefusalCode, reason: string): Authorization {
  return { allowed: false, code, reason };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
