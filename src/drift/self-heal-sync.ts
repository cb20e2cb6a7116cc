/**
 * A self-heal sync, requested by drift detection itself: the detector decided selfHealAllowed (./self-heal.ts)
 * and handed over a `sync` action, so this folder — which owns that authorization — asks the request path
 * (src/requests requestSelfHealSync, origin `self-heal`: queued as `wavesync (selfHeal)`, pruning only with
 * `syncPolicy.automated.prune: true`, audited `self-heal`). Before that, the chat side shows it through the
 * SelfHealAnnouncer port (the Slack drift notices post a normal header whose thread starts with a line saying
 * why); without a channel the sync still runs, unreported in chat.
 */
import type { Application, SyncOperation } from '../domain/index.js';
import type { ReportTarget } from '../queue/index.js';
import { requestSelfHealSync, type SelfHealRequestDeps } from '../requests/for-drift.js';
import type { ResourceDifference } from './compare-application.js';
import { SELF_HEAL_INITIATOR, selfHealOperation, selfHealReason } from './self-heal.js';

/**
 * Shows a self-heal sync before it is queued (src/slack/reporters/drift-notices.ts createSelfHealAnnouncer): its
 * header and why-line in the Application's drift channel. Resolves with the header's thread, the job's report
 * target, or undefined without a channel; rejects when chat fails (nothing is queued then, the detector tries
 * again next tick).
 */
export type SelfHealAnnouncer = (
  app: Application,
  operation: SyncOperation,
  differences: readonly ResourceDifference[],
) => Promise<ReportTarget | undefined>;

/** The announcer, the producer, and where the sync is audited and logged. */
export interface SelfHealSyncDeps extends SelfHealRequestDeps {
  announce: SelfHealAnnouncer;
}

/**
 * Announce, then request the self-heal sync of `app`'s drift (`differences`, as compared). `pinned`: the revision a
 * promotion pinned the Application at, synced instead of its targetRevision. Rejects when the announcer or the
 * queue fails (what enqueueSync throws).
 */
export async function requestSelfHeal(
  deps: SelfHealSyncDeps,
  app: Application,
  differences: readonly ResourceDifference[],
  pinned?: string,
): Promise<void> {
  const operation = { ...selfHealOperation(app), ...(pinned === undefined ? {} : { revision: pinned }) };
  const target = await deps.announce(app, operation, differences);
  await requestSelfHealSync(deps, {
    request: { application: app.name, operation, initiator: SELF_HEAL_INITIATOR, target },
    reason: selfHealReason(differences, operation.prune),
  });
}
