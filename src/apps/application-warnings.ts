/**
 * Silent Argo CD fallbacks in an Application itself: a sync option in `spec.syncPolicy.syncOptions` that Argo CD
 * does not know (it matches exact `Key=value` strings, so `CreateNamespce=true` does nothing). Reported at config
 * load (the registry logs them) and by `wavesync plan --app`, with the Application's file and line.
 */
import type { Application } from '../domain/index.js';
import { type PlanWarning, syncOptionProblem } from '../engine/index.js';

/** One warning per unknown sync option, at the Application's origin (`file:line`; line 1 when it has none). */
export function applicationWarnings(app: Pick<Application, 'name' | 'origin' | 'syncPolicy'>): PlanWarning[] {
  const match = /^(.*):(\d+)$/.exec(app.origin);
  const [file, line] = match ? [match[1]!, Number(match[2])] : [app.origin, 1];
  return (app.syncPolicy?.syncOptions ?? []).flatMap((option) => {
    const problem = syncOptionProblem(option);
    return problem === undefined
      ? []
      : [{ file, line, message: `Application ${app.name}: spec.syncPolicy.syncOptions: ${problem}` }];
  });
}
