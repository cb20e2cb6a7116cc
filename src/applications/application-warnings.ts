/**
 * Nothing silent in an Application itself: a field wavesync treats differently from Argo CD or a key that is no
 * field of Argo CD's Application (application-fields.ts), an `ignoreDifferences` option wavesync does not honour, a
 * sync option in `spec.syncPolicy.syncOptions` that Argo CD does not know (it matches exact `Key=value` strings, so
 * `CreateNamespce=true` does nothing). Reported at config load (the registry logs them as warnings), by
 * `wavesync plan --app` and in the `/sync` thread, with the Application's file and line.
 */
import { type Application, originLocation } from '../domain/index.js';
import { ignoreDifferencesOf, type PlanWarning, syncOptionProblem } from '../engine/index.js';
import { checkApplicationFields } from './application-fields.js';
import { subscriptionWarnings } from './notification-subscriptions.js';

/**
 * One warning per unknown sync option, and per notification subscription annotation that subscribes to nothing
 * (unknown trigger, a service other than slack), at the Application's origin (`file:line`; line 1 when it has none).
 */
export function applicationWarnings(
  app: Pick<Application, 'name' | 'origin' | 'syncPolicy'> &
    Partial<Pick<Application, 'annotations' | 'sources' | 'manifest'>>,
): PlanWarning[] {
  // A generated Application's origin is its ApplicationSet's: `appset.yaml:3 (ApplicationSet shop)`.
  const { file, line, generatedBy } = originLocation(app.origin);
  const fields = checkApplicationFields(app.manifest).warnings.map(({ path, message }) => ({
    file,
    line,
    message: `Application ${app.name}: ${path}: ${message}`,
  }));
  const ignored = app.manifest
    ? ignoreDifferencesOf({ manifest: app.manifest }).warnings.map((message) => ({
        file,
        line,
        message: `Application ${app.name}: ${message}`,
      }))
    : [];
  const options = (app.syncPolicy?.syncOptions ?? []).flatMap((option) => {
    const problem = syncOptionProblem(option);
    return problem === undefined
      ? []
      : [{ file, line, message: `Application ${app.name}: spec.syncPolicy.syncOptions: ${problem}` }];
  });
  const subscriptions = subscriptionWarnings({ name: app.name, annotations: app.annotations ?? {} }).map(
    (message) => ({ file, line, message }),
  );
  const all = [
    ...sourceWarnings(app).map((message) => ({ file, line, message })),
    ...fields,
    ...ignored,
    ...options,
    ...subscriptions,
  ];
  if (generatedBy === undefined) return all;
  // Say which ApplicationSet generated it: its warnings are fixed in that ApplicationSet's template.
  const named = `Application ${app.name}`;
  return all.map((w) => ({
    ...w,
    message: w.message.startsWith(`${named}:`)
      ? `${named} (ApplicationSet ${generatedBy})${w.message.slice(named.length)}`
      : `${w.message} (ApplicationSet ${generatedBy})`,
  }));
}

/** Both `spec.source` and `spec.sources`: Argo CD uses `sources` and ignores `source`, and so does wavesync. */
function sourceWarnings(app: Partial<Pick<Application, 'name' | 'sources' | 'manifest'>>): string[] {
  const spec = app.manifest?.spec as { source?: unknown } | undefined;
  if (app.sources === undefined || spec?.source === undefined) return [];
  return [
    `Application ${app.name}: spec.source is ignored because spec.sources is given (Argo CD uses spec.sources); remove one of them`,
  ];
}
