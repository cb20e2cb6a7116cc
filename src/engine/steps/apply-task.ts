/**
 * applyTask — apply one task's target object (spec §4.13): `Replace=true` (operation, target or live) → replace
 * an existing object or create a missing one; otherwise server-side apply with field manager `wavesync` and
 * `force=true` (wavesync always applies server-side; `ServerSideApply=true|false` is accepted and changes
 * nothing). `Validate=false` turns field validation off (`fieldValidation=Ignore`) and therefore uses
 * create/replace: server-side apply is always strict about unknown fields in kube-apiserver. `Force=true`
 * (operation, target or live; spec §4.13 `--force`) deletes and re-creates the object where kubectl's `--force`
 * does: `replace --force` always deletes first; `apply --force` only when the apply is refused as Conflict (409)
 * or Invalid (422, e.g. a Job's immutable pod template) — kubectl apply patcher.go deleteAndCreate. In a dry run
 * such a refusal is accepted as "would be re-created" (the new object is then not validated by the server).
 * Every object gets the Application's tracking (tracked-objects.ts); hooks also get the operation annotation. Transient API errors are
 * retried; the answer is fed into the live cache.
 */
import {
  type KubeObject,
  OPERATION_ANNOTATION,
  type ResourceTracking,
  type SyncOperation,
} from '../../domain/index.js';
import { ClusterError, type ObjectRef } from '../cluster.js';
import { withIgnoredFromLive } from '../diff/ignore-differences.js';
import { messageOf, type RetryOptions, withRetry } from '../retry.js';
import { objectRefOf, type SyncContext } from '../sync-context.js';
import { hasSyncOption } from '../sync-options.js';
import type { SyncTask } from '../sync-task.js';
import { withTracking } from '../tracked-objects.js';

export type ApplyOutcome = { ok: true; object: KubeObject; message: string } | { ok: false; message: string };

/** The object exactly as wavesync sends it for a task. */
function desiredObjectOf(ctx: SyncContext, task: SyncTask, operationStartedAt: string): KubeObject {
  const obj = desiredObject(task, objectRefOf(ctx, task), ctx, operationStartedAt);
  return respectsIgnoreDifferences(ctx.operation)
    ? withIgnoredFromLive(ctx.ignoreDifferences, obj, task.liveObj)
    : obj;
}

/** The sync option `RespectIgnoreDifferences=true`: ignored fields keep their live values on apply. */
export function respectsIgnoreDifferences(operation: SyncOperation): boolean {
  return hasSyncOption(operation, 'RespectIgnoreDifferences=true');
}

/** Whose objects a sync applies: the Application, its destination namespace and the tracking method. */
export interface TrackingTarget {
  application: string;
  namespace: string;
  tracking: ResourceTracking;
}

/** The object sent for `task` at `ref` for `app`'s Application (the diff's dry run sends the same). */
export function desiredObject(
  task: SyncTask,
  ref: ObjectRef,
  app: TrackingTarget,
  operationStartedAt: string,
): KubeObject {
  const placed = { ...task.targetObj!, metadata: { ...task.targetObj!.metadata, name: ref.name } };
  if (ref.namespace === '') delete placed.metadata.namespace;
  const labelled = task.untracked
    ? placed
    : withTracking(placed, app.application, app.namespace, app.tracking);
  const metadata = { ...labelled.metadata };
  if (task.isHook)
    metadata.annotations = { ...metadata.annotations, [OPERATION_ANNOTATION]: operationStartedAt };
  return { ...labelled, metadata };
}

function verbMessage(task: SyncTask, verb: string, dryRun: boolean): string {
  const resource = `${task.kind.toLowerCase()}${task.group ? `.${task.group}` : ''}/${task.name}`;
  return `${resource} ${verb}${dryRun ? ' (server dry run)' : ''}`;
}

/** Applies (or, with `dryRun`, server-dry-runs) one task. Never throws for API errors. */
export async function applyTask(
  ctx: SyncContext,
  task: SyncTask,
  options: { dryRun: boolean; operationStartedAt: string },
): Promise<ApplyOutcome> {
  const { dryRun } = options;
  const obj = desiredObjectOf(ctx, task, options.operationStartedAt);
  const ref = objectRefOf(ctx, task);
  const validate = !hasSyncOption(ctx.operation, 'Validate=false', task.targetObj);
  const replace = !validate || hasSyncOption(ctx.operation, 'Replace=true', task.targetObj, task.liveObj);
  const force = hasSyncOption(ctx.operation, 'Force=true', task.targetObj, task.liveObj);
  const onRetry = (error: Error, attempt: number) =>
    ctx.logger.warn({ task: ref, attempt, error: error.message }, 'transient API error, retrying');
  const recreate = async (): Promise<{ object: KubeObject; verb: string }> => {
    // The server cannot dry-run a re-creation: answer with the live object only when it already holds everything
    // wanted, so ApplyOutOfSyncOnly never skips a Force/Replace task that differs from live.
    if (dryRun) {
      const object = task.liveObj && holdsDesired(task.liveObj, obj) ? task.liveObj : obj;
      return { object, verb: 'would be deleted and re-created (Force=true)' };
    }
    const object = await deleteAndCreate(ctx, ref, obj, validate, { onRetry });
    return { object, verb: 'deleted and re-created (Force=true)' };
  };
  try {
    let done: { object: KubeObject; verb: string };
    if (replace && task.liveObj !== undefined && force) {
      done = await recreate();
    } else if (replace && task.liveObj !== undefined) {
      done = {
        object: await withRetry(() => ctx.cluster.replace(obj, { dryRun, validate }), { onRetry }),
        verb: 'replaced',
      };
    } else if (replace) {
      done = {
        object: await withRetry(() => ctx.cluster.create(obj, { dryRun, validate }), { onRetry }),
        verb: 'created',
      };
    } else {
      try {
        done = {
          object: await withRetry(() => ctx.cluster.apply(obj, { dryRun, validate, force: true }), {
            onRetry,
          }),
          verb: 'serverside-applied',
        };
      } catch (error) {
        if (!force || task.liveObj === undefined || !isRefusedUpdate(error)) throw error;
        done = await recreate();
      }
    }
    const object = dryRun ? done.object : ctx.live.put(ref, done.object);
    return { ok: true, object, message: verbMessage(task, done.verb, dryRun) };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/**
 * True when `live` holds every field `desired` sets, with the same value (maps: every key, recursively; lists:
 * same length, element by element; scalars: equal). Fields only the server adds (defaults, status, uid) are fine.
 */
function holdsDesired(live: unknown, desired: unknown): boolean {
  if (Array.isArray(desired))
    return (
      Array.isArray(live) &&
      live.length === desired.length &&
      desired.every((d, i) => holdsDesired(live[i], d))
    );
  if (typeof desired === 'object' && desired !== null) {
    if (typeof live !== 'object' || live === null || Array.isArray(live)) return false;
    const record = live as Record<string, unknown>;
    return Object.entries(desired).every(([k, v]) => holdsDesired(record[k], v));
  }
  return live === desired;
}

/** An update the API server refused on its merits (Conflict or Invalid), which `--force` answers with re-creation. */
function isRefusedUpdate(error: unknown): boolean {
  return error instanceof ClusterError && (error.statusCode === 409 || error.statusCode === 422);
}

/** How long `Force=true` waits for the deleted object to be gone before creating it again, in ms. */
const FORCE_DELETE_TIMEOUT_MS = 60_000;

/**
 * Deletes the live object (Background propagation, as kubectl's `--force` does), waits until the API server no
 * longer has it (re-read every 100 ms, up to 60 s — kubectl polls the same way), then creates `obj`.
 * @throws ClusterError from the API; Error naming the object when it is still there after the timeout.
 */
async function deleteAndCreate(
  ctx: SyncContext,
  ref: ObjectRef,
  obj: KubeObject,
  validate: boolean,
  retry: RetryOptions,
): Promise<KubeObject> {
  await withRetry(() => ctx.cluster.delete(ref, { propagationPolicy: 'Background' }), retry);
  const deadline = Date.now() + FORCE_DELETE_TIMEOUT_MS;
  while ((await withRetry(() => ctx.cluster.get(ref), retry)) !== undefined) {
    if (Date.now() >= deadline) {
      throw new Error(
        `${ref.kind}/${ref.name} was deleted for Force=true but still exists after ${FORCE_DELETE_TIMEOUT_MS / 1000} s (finalizers?)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return withRetry(() => ctx.cluster.create(obj, { dryRun: false, validate }), retry);
}
