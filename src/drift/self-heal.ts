/**
 * The selfHeal decision, pure: is drift in an Application synced automatically now, with which SyncOperation, by
 * whom, and why (for the audit log)? Argo CD's automated sync with `syncPolicy.automated.selfHeal`
 * (controller/appcontroller.go autoSync). The drift detector asks selfHealAllowed; the self-heal sync itself is
 * requested by ./self-heal-sync.ts (src/requests, origin `self-heal`), after its SelfHealAnnouncer (the Slack side,
 * src/slack/reporters/drift-notices.ts) posted the header.
 */
import type { Application, Initiator, SyncOperation } from '../domain/index.js';
import type { ResourceDifference } from './compare-application.js';

/** Who a self-heal sync is requested by (shown in its header and history). */
export const SELF_HEAL_INITIATOR: Initiator = {
  userId: 'wavesync (selfHeal)',
  userName: 'wavesync (selfHeal)',
};

/**
 * Whether drift in `app` is synced without a person: `syncPolicy.automated.selfHeal` is set and the environment
 * allows automatic syncs now (`autoSyncAllowed`: src/environments/auto-sync-policy.ts, plus the caller's
 * allowEmpty guard; asked only with selfHeal set, since it may throw for an unknown environment). Otherwise drift
 * gets a notice whose Sync button is a person's request.
 */
export function selfHealAllowed(app: Application, autoSyncAllowed: () => boolean): boolean {
  return Boolean(app.syncPolicy?.automated?.selfHeal) && autoSyncAllowed();
}

/** The operation of a self-heal sync: no dry run, pruning only with `syncPolicy.automated.prune: true` (Argo CD). */
export function selfHealOperation(app: Application): SyncOperation {
  return { prune: app.syncPolicy?.automated?.prune === true, dryRun: false, syncOptions: [] };
}

/**
 * The audit log's reason of a self-heal sync: `selfHeal (syncPolicy.automated, prune): drift in 2 resource(s):
 * Deployment/web (changed), Service/web (missing)` (at most 10 named).
 */
export function selfHealReason(differences: readonly ResourceDifference[], prune: boolean): string {
  const drifted = differences.map((d) => `${d.key.kind}/${d.key.name} (${d.reason})`);
  return `selfHeal (syncPolicy.automated${prune ? ', prune' : ''}): drift in ${drifted.length} resource(s): ${drifted.slice(0, 10).join(', ')}${drifted.length > 10 ? ', …' : ''}`;
}
