/**
 * Drift detection's environment rules (wavesync.yaml): may an Application be synced automatically
 * (`syncPolicy.automated.selfHeal`), and where does its drift notice go.
 *
 * Automatic syncs: an Application in no environment may self-heal; in an environment, only when it does not
 * `requireApproval` (an automatic sync would bypass the approval), `autoSync` is not false, and no freeze window
 * is in force (Argo CD's sync windows block automated syncs the same way). Otherwise drift gets a notice whose
 * Sync button goes through the normal `/sync` path, approval included.
 *
 * Channel: the Application's `wavesync.io/channel` annotation (or label), else its environment's
 * `notifications.channel`, else `defaults.driftDetection.channel`, else none (drift is only logged).
 */
import type { Application } from '../domain/index.js';
import type { Settings } from '../settings/index.js';
import { environmentFor } from './environment-resolver.js';
import { activeFreeze } from './freeze-windows.js';

/** Annotation (or label) on an Application naming the Slack channel id of its drift notices. */
const CHANNEL_ANNOTATION = 'wavesync.io/channel';

type PolicySettings = Pick<Settings, 'environments' | 'defaults'>;

/** Whether drift in `app` may be synced without a person at `now`. @throws BotError for an unknown environment. */
export function autoSyncAllowed(settings: PolicySettings, app: Application, now: Date): boolean {
  const env = environmentFor(settings, app);
  if (!env) return true;
  if (env.settings.requireApproval || env.settings.autoSync === false) return false;
  return activeFreeze(env.settings.freezeWindows, now) === undefined;
}

/**
 * What a new revision of an automated Application (src/revisions) may do now, by its environment: `sync` (no
 * environment, or one that allows automatic syncs now), `approval` (the environment `requireApproval`s: an approval
 * request, never a sync past it), `frozen` (a freeze window is in force: wait until it ends; `until` ISO-8601),
 * `manual` (`autoSync: false`: the channel is told, as for an Application without `automated`).
 * @throws BotError for an unknown environment.
 */
export type AutomatedSyncDecision =
  | { kind: 'sync' }
  | { kind: 'approval'; environment: string }
  | { kind: 'frozen'; environment: string; freeze: string; until: string }
  | { kind: 'manual'; environment: string };

export function automatedSyncDecision(
  settings: PolicySettings,
  app: Application,
  now: Date,
): AutomatedSyncDecision {
  const env = environmentFor(settings, app);
  if (!env) return { kind: 'sync' };
  if (env.settings.autoSync === false) return { kind: 'manual', environment: env.name };
  const freeze = activeFreeze(env.settings.freezeWindows, now);
  if (freeze)
    return {
      kind: 'frozen',
      environment: env.name,
      freeze: freeze.window.name,
      until: freeze.endsAt.toISOString(),
    };
  if (env.settings.requireApproval) return { kind: 'approval', environment: env.name };
  return { kind: 'sync' };
}

/** The channel id for `app`'s drift notices, or undefined when none is configured. */
export function driftChannelOf(settings: PolicySettings, app: Application): string | undefined {
  return (
    app.annotations[CHANNEL_ANNOTATION] ??
    app.labels[CHANNEL_ANNOTATION] ??
    environmentFor(settings, app)?.settings.notifications?.channel ??
    settings.defaults.driftDetection.channel
  );
}
