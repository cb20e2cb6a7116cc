/**
 * Whether drift in an Application may be fixed automatically now (selfHeal), and if not, why — the line a drift
 * notice shows. Argo CD's rules (controller/appcontroller.go autoSync) and the environment's (wavesync.yaml
 * `environments:`: requireApproval, autoSync, freeze windows):
 *
 * - `syncPolicy.automated.selfHeal` must be on;
 * - the environment must allow automatic syncs now (autoSyncAllowed);
 * - with `automated.prune` and without `automated.allowEmpty`, an Application whose manifests render nothing while
 *   live objects remain is not synced automatically ("auto-sync will wipe out all resources"). What the last
 *   comparison saw is recorded with `observe`, per Application, in this process.
 */
import type { Application } from '../domain/index.js';
import { autoSyncAllowed, environmentNameOf } from '../environments/index.js';
import type { Settings } from '../settings/index.js';

export interface DriftAutomationPolicy {
  /** Record what the comparison of `app` saw: how many objects its manifests rendered and how many are live. */
  observe(app: Application, counts: { rendered: number; live: number }): void;
  /** Whether the environment (and the empty-render safety net) allows an automatic sync of `app` now. */
  allowed(app: Application): boolean;
  /** The notice's reason line: why drift in `app` waits for a person; undefined when it is self-healed. */
  whyNotAutomatic(app: Application): string | undefined;
}

/** The policy over `settings` (its `environments:`), at `now()` (default the wall clock). */
export function createDriftAutomationPolicy(
  settings: Settings,
  now: () => Date = () => new Date(),
): DriftAutomationPolicy {
  // Applications whose last render was empty while live objects remain.
  const wouldWipeOut = new Set<string>();
  const refusesEmpty = (app: Application) => {
    const automated = app.syncPolicy?.automated;
    return automated?.prune === true && automated.allowEmpty !== true && wouldWipeOut.has(app.name);
  };
  return {
    observe(app, { rendered, live }) {
      if (rendered === 0 && live > 0) wouldWipeOut.add(app.name);
      else wouldWipeOut.delete(app.name);
    },
    allowed: (app) => !refusesEmpty(app) && autoSyncAllowed(settings, app, now()),
    whyNotAutomatic(app) {
      if (refusesEmpty(app))
        return 'selfHeal refused: the manifests are empty and prune would delete everything (automated.allowEmpty)';
      if (!app.syncPolicy?.automated?.selfHeal) return 'selfHeal is off';
      if (autoSyncAllowed(settings, app, now())) return undefined;
      const env = environmentNameOf(settings, app);
      const rules = env === undefined ? undefined : settings.environments[env];
      if (rules?.requireApproval) return `selfHeal not allowed: ${env} requires approval`;
      if (rules?.autoSync === false) return `selfHeal not allowed: ${env} has autoSync: false`;
      return `selfHeal paused: ${env} is in a freeze window`;
    },
  };
}
