/**
 * authorizeRequest — may this user sync this Application from this channel, at this revision, now? Checks in
 * order: who may do it where (authorizeAction for `sync`, `dry-run` or `delete`: permissions, channels), allowed
 * revisions, change-freeze windows (break-glass with a reason lets a request through a freeze and is recorded).
 * Pure apart from the group look-up it is given.
 */

import type { EnvironmentSettings } from '../settings/index.js';
import { activeFreeze } from './freeze-windows.js';
import { type ActionRefusalCode, authorizeAction, type IsMemberOfAny } from './permissions.js';
import { isRevisionAllowed } from './revision-rules.js';

export type RefusalCode = ActionRefusalCode | 'revision_not_allowed' | 'frozen' | 'break_glass_needs_reason';

export interface RequestContext {
  application: string;
  environment: string;
  userId: string;
  channel: string;
  /** Symbolic revision being synced: `--revision`, else the Application's targetRevision, else HEAD. */
  revisionName: string;
  /** Reason given with `--break-glass`; undefined without the flag ('' when given empty). */
  breakGlassReason: string | undefined;
  now: Date;
  /**
   * Which permission the request needs (default `sync`). A `rollback` returns to a revision that was synced before
   * (and passed the revision rules then), so `allowedRevisions` is not asked again; freeze windows are.
   */
  action?: 'sync' | 'dry-run' | 'delete' | 'rollback';
  /** A button on a message the bot posted (permissions.ts: a rollback from the notification channel). */
  fromBotMessage?: boolean;
}

export type RequestDecision =
  | { allowed: true; breakGlass?: { reason: string; freeze: string; endsAt: string } }
  | { allowed: false; code: RefusalCode; reason: string };

const refuse = (code: RefusalCode, reason: string): RequestDecision => ({ allowed: false, code, reason });

/** Decide whether the request may proceed (to the queue, or to approval when the environment requires it). */
export async function authorizeRequest(
  env: EnvironmentSettings,
  ctx: RequestContext,
  isMemberOfAny: IsMemberOfAny,
): Promise<RequestDecision> {
  const { environment } = ctx;
  const permitted = await authorizeAction(
    { name: environment, settings: env },
    { ...ctx, action: ctx.action ?? 'sync' },
    isMemberOfAny,
  );
  if (!permitted.allowed) return permitted;
  if (ctx.action !== 'rollback' && !isRevisionAllowed(env.allowedRevisions, ctx.revisionName)) {
    return refuse(
      'revision_not_allowed',
      `Revision ${ctx.revisionName} is not allowed for ${environment}: allowedRevisions is ${env.allowedRevisions.map((r) => `\`${r}\``).join(', ')}.`,
    );
  }
  return checkFreeze(env, ctx);
}

function checkFreeze(env: EnvironmentSettings, ctx: RequestContext): RequestDecision {
  const freeze = activeFreeze(env.freezeWindows, ctx.now);
  if (!freeze) return { allowed: true };
  const until = formatUtc(freeze.endsAt);
  const command =
    ctx.action === 'rollback' ? `/sync rollback ${ctx.application}` : `/sync ${ctx.application}`;
  if (ctx.breakGlassReason === undefined) {
    return refuse(
      'frozen',
      `Sync of ${ctx.application} is frozen until ${until} (change freeze "${freeze.window.name}"). ` +
        `Break glass: ${command} --break-glass "reason"`,
    );
  }
  const reason = ctx.breakGlassReason.trim();
  if (reason === '') {
    return refuse(
      'break_glass_needs_reason',
      `Break glass needs a reason: ${command} --break-glass "why this cannot wait"`,
    );
  }
  return {
    allowed: true,
    breakGlass: { reason, freeze: freeze.window.name, endsAt: freeze.endsAt.toISOString() },
  };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** `Mon 2026-11-30 09:00 UTC`. */
function formatUtc(date: Date): string {
  const iso = date.toISOString();
  return `${WEEKDAYS[date.getUTCDay()]} ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
