/**
 * applyTask — apply one task's target object (spec §4.13): `Replace=true` (operation, target or live) → replace
 * an existing object or create a missing one; otherwise server-side apply with field manager `wavesync` and
 * `force=true` (wavesync always applies server-side; `ServerSideApply=true|false` is accepted and changes
 * nothing). `Validate=false` turns field validation off (`fieldValidation=Ignore`) and therefore uses
 * create/replace: server-side apply is always strict about unknown fields in kube-apiserver. Every object gets the tracking label; hooks also get
 * the operation annotation. Transient API errors are retried; the answer is fed into the live cache.
 */
import { type KubeObject, OPERATION_ANNOTATION } from '../domain/index.js';
import { messageOf, withRetry } from './retry.js';
import { objectRefOf, type SyncContext } from './sync-context.js';
import { hasSyncOption } from './sync-options.js';
import type { SyncTask } from './sync-task.js';
import { withTrackingLabel } from './tracked-objects.js';

export type ApplyOutcome = { ok: true; object: KubeObject; message: string } | { ok: false; message: string };

/** The object exactly as wavesync sends it for a task. */
export function desiredObjectOf(ctx: SyncContext, task: SyncTask, operationStartedAt: string): KubeObject {
  const ref = objectRefOf(ctx, task);
  const labelled = withTrackingLabel(task.targetObj!, ctx.application);
  const metadata = { ...labelled.metadata, name: ref.name };
  if (ref.namespace === '') delete metadata.namespace;
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
  const onRetry = (error: Error, attempt: number) =>
    ctx.logger.warn({ task: ref, attempt, error: error.message }, 'transient API error, retrying');
  try {
    let object: KubeObject;
    let verb: string;
    if (replace && task.liveObj !== undefined) {
      object = await withRetry(() => ctx.cluster.replace(obj, { dryRun, validate }), { onRetry });
      verb = 'replaced';
    } else if (replace) {
      object = await withRetry(() => ctx.cluster.create(obj, { dryRun, validate }), { onRetry });
      verb = 'created';
    } else {
      object = await withRetry(() => ctx.cluster.apply(obj, { dryRun, validate, force: true }), { onRetry });
      verb = 'serverside-applied';
    }
    if (!dryRun) ctx.live.put(ref, object);
    return { ok: true, object, message: verbMessage(task, verb, dryRun) };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}
