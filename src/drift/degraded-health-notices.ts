/**
 * `on-health-degraded` seen by drift detection: an Application whose last operation Succeeded (and was Healthy, or
 * not yet Degraded, when the worker watched it) turns Degraded later — a rollout past its progress deadline, a
 * Deployment someone broke by hand. The drift check reads the Application's tracked live objects anyway; when one
 * of them is Degraded (the same health checks as the engine's), the channels subscribed to `on-health-degraded`
 * (Application annotations, environment defaults) are told, once per operation and channel: the key is the one the
 * worker's notifier uses (NotificationMarks, `postSubscriptionNotice`), so an operation the worker already announced as Degraded is not announced
 * again, and every later drift check of the same operation posts nothing.
 */

import { subscribedChannels } from '../applications/index.js';
import type { Application, KubeObject } from '../domain/index.js';
import { getResourceHealth, ITEMS_PER_YIELD, type ScriptedHealth, TimeSlice } from '../engine/index.js';
import {
  environmentFor,
  type NotificationMarks,
  type NotificationPoster,
  postSubscriptionNotice,
  subscriptionsOf,
} from '../environments/index.js';
import type { SyncQueueClient } from '../queue/index.js';
import { canRollBackApplication } from '../rollback/index.js';
import type { Settings } from '../settings/index.js';

export interface DegradedHealthNoticeDeps {
  /** The notice claims shared with the worker's notifier (redisNotificationMarks in production). */
  marks: NotificationMarks;
  settings: Pick<Settings, 'environments'>;
  queue: Pick<SyncQueueClient, 'history' | 'jobStatus'>;
  poster: NotificationPoster;
  /**
   * Lua health scripts for the Application's destination, as the worker judges health (wavesync.yaml `health:` and
   * the cluster's argocd-cm: scriptedHealthSource); default none.
   */
  scriptedHealthFor?(app: Application): Promise<ScriptedHealth | undefined>;
  onError?(error: unknown): void;
}

/**
 * Check `live` (the Application's tracked live objects) for Degraded resources and notify the subscribers of
 * `on-health-degraded` about the Application's last operation when there are. Resolves once done; errors of the
 * look-ups reject, delivery errors go to `onError`.
 */
export async function noticeDegradedHealth(
  deps: DegradedHealthNoticeDeps,
  app: Application,
  live: readonly KubeObject[],
): Promise<void> {
  const scripted = await deps.scriptedHealthFor?.(app);
  const options = scripted ? { scripted } : {};
  // ITEMS_PER_YIELD objects judged together (scripts answer concurrently), in time slices: all 50,000 of a big
  // Application at once were one piece of the bot's loop after every drift comparison.
  const slice = new TimeSlice();
  const degraded: { o: KubeObject; health: NonNullable<Awaited<ReturnType<typeof getResourceHealth>>> }[] =
    [];
  for (let i = 0; i < live.length; i += ITEMS_PER_YIELD) {
    if (slice.due()) await slice.pause();
    const judged = await Promise.all(
      live
        .slice(i, i + ITEMS_PER_YIELD)
        .map(async (o) => ({ o, health: await getResourceHealth(o, options) })),
    );
    for (const { o, health } of judged) if (health?.status === 'Degraded') degraded.push({ o, health });
  }
  if (degraded.length === 0) return;
  const env = environmentFor(deps.settings, app);
  const channels = subscribedChannels('on-health-degraded', ...subscriptionsOf(app, env));
  if (channels.length === 0) return;
  const [last] = await deps.queue.history(app.name, 1);
  if (last?.phase !== 'Succeeded' || last.dryRun || last.deletion) return;
  const target = (await deps.queue.jobStatus(last.jobId))?.target;
  const threadLink = target ? await deps.poster.permalink(target).catch(() => undefined) : undefined;
  const [first] = degraded;
  const more = degraded.length > 1 ? ` (and ${degraded.length - 1} more)` : '';
  const message = first?.health.message ? `: ${first.health.message}` : '';
  await postSubscriptionNotice(deps, channels, {
    trigger: 'on-health-degraded',
    application: app.name,
    destination: env?.name ?? app.destination.namespace ?? app.destination.name ?? '',
    revision: last.revision,
    requester: last.initiator,
    jobId: last.jobId,
    phase: last.phase,
    detail: `${first?.o.kind}/${first?.o.metadata.name} Degraded${message}${more} (seen by drift detection)`,
    rollbackable: canRollBackApplication(app),
    ...(threadLink ? { threadLink } : {}),
    ...(last.rollback ? { rollback: last.rollback } : {}),
  });
}
