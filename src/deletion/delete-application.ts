/**
 * deleteApplication — the cascading delete of an Application, run by the worker for `/sync delete <app>`, as
 * Argo CD's controller finalizes a deleted Application (controller/appcontroller.go finalizeApplicationDeletion):
 * loop `nextDeletionStep` over the tracked live objects — delete the highest remaining sync wave with the
 * finalizer's propagation policy, wait (watch, with a short re-list as fallback) until nothing is terminating,
 * next wave — then remove the Application object from the cluster when it is there (its resources finalizers
 * first, as the controller does once the resources are gone). Without a resources finalizer only the Application
 * goes. Progress is reported as SyncEvents (OperationStarted, ResourcesDeleted per wave, ResourcesKept,
 * OperationCompleted); the state is persisted after every step, and a resumed run simply re-lists and carries on.
 * With a cascade, the Application's PreDelete hooks run first (each must become Healthy) and its PostDelete hooks
 * once the resources are gone, before the Application object is removed (spec §9.2 steps 1 and 3;
 * ./run-deletion-hooks.ts).
 * A child Application among the resources (App of Apps) that carries a resources finalizer is finalized the same
 * way before its object is deleted — wavesync plays the Argo CD controller for it, recursively — because nothing
 * else would: without it the child would stay Terminating and the parent's deletion time out. A child is deleted
 * on the same cluster as its parent's resources; its PreDelete/PostDelete hooks are not run.
 */

import { applicationFromObject } from '../applications/index.js';
import {
  type Application,
  BotError,
  type DeletionCascade,
  formatResourceKey,
  type KubeObject,
  type OperationState,
  type ResourceTracking,
  type SyncEvent,
  type SyncOperation,
  type TaskRef,
} from '../domain/index.js';
import {
  type Cluster,
  ClusterError,
  isNotFound,
  listTrackedLiveObjects,
  refOf,
  type ScriptedHealth,
  Wakeup,
  type WatchTarget,
} from '../engine/index.js';
import {
  CASCADE_FINALIZERS,
  finalizersForCascade,
  type KeptResource,
  nextDeletionStep,
  planDeletion,
  planHash,
} from './application-deletion.js';
import { isFinalizedChildApplication, removeApplicationObject } from './application-object.js';
import type { DeletionHooks } from './deletion-hooks.js';
import {
  listKeys,
  taskRefOf,
  taskRefOfKey,
  timeoutMessage,
  unconfirmedMessage,
} from './deletion-messages.js';
import { type DeletionHookRun, runDeletionHooks } from './run-deletion-hooks.js';

export interface DeleteApplicationInput {
  app: Application;
  /** `--cascade`; undefined follows the Application's finalizers. */
  cascade: DeletionCascade | undefined;
  /** `confirmationKeys` of the `Delete=confirm` objects the confirmation (or approval) covered. */
  confirmed: readonly string[];
  /**
   * `planHash` of the plan the requester confirmed (and approvers approved). When given, a fresh run (not a resume)
   * re-plans before doing anything and ends with phase Error, nothing deleted, when the plan's hash differs — the
   * cluster changed since (e.g. a sync queued ahead of this job created or removed objects).
   */
  planHash?: string;
  /** The job's operation, recorded in the OperationState. */
  operation: SyncOperation;
  cluster: Cluster;
  /** How the Application's objects are marked (wavesync.yaml `resourceTracking`); default annotation tracking. */
  tracking?: ResourceTracking;
  reporter: { report(event: SyncEvent): Promise<void> };
  persist?(state: OperationState): Promise<void>;
  /** State of a previous attempt (resume): its startedAt is kept. */
  initialState?: OperationState;
  /** Aborted → the deletion stops between steps with phase Failed (`Operation terminated`). */
  signal?: AbortSignal;
  /** Give up waiting for terminating objects after this many ms (message names them). */
  timeoutMs: number;
  /** Fallback re-list interval while waiting, in ms (watch events wake it earlier); default 2000. */
  relistMs?: number;
  /**
   * The Application's PreDelete/PostDelete hooks (from its rendered manifests); called only when the deletion
   * cascades. A BotError (manifests that do not render) ends the deletion with phase Error before anything goes.
   */
  hooks?(): Promise<DeletionHooks>;
  /** Lua health scripts (wavesync.yaml `health:`), as the sync judges health: a hook of a scripted kind is done when its script says Healthy. */
  scriptedHealth?: ScriptedHealth;
}

/**
 * Run the deletion to the end. Resolves with the final OperationState: Succeeded, or Failed with the reason
 * (timeout naming what is still terminating, unconfirmed `Delete=confirm` objects, termination).
 * @throws ClusterError for transient API failures (the queue retries and this resumes).
 */
export async function deleteApplication(input: DeleteApplicationInput): Promise<OperationState> {
  const run = new DeletionRun(input);
  return run.execute();
}

class DeletionRun {
  private readonly input: DeleteApplicationInput;
  private readonly app: Application;
  private readonly startedAt: string;
  private readonly deleted: { wave: number; resources: TaskRef[] }[] = [];
  private readonly wakeup = new Wakeup();
  private watched = new Set<string>();
  private watches: { stop(): void }[] = [];
  private hooks: DeletionHooks = { preDelete: [], postDelete: [] };

  constructor(input: DeleteApplicationInput) {
    this.input = input;
    this.app = { ...input.app, finalizers: finalizersForCascade(input.app, input.cascade) };
    this.startedAt = input.initialState?.startedAt ?? new Date().toISOString();
  }

  async execute(): Promise<OperationState> {
    const deadline = Date.now() + this.input.timeoutMs;
    try {
      const live = await listTrackedLiveObjects(this.input.cluster, this.app.name, this.input.tracking);
      if (this.cascades() && this.input.hooks) this.hooks = await this.input.hooks();
      const refused = this.input.initialState ? undefined : this.checkPlan(live);
      if (refused) return await this.finish(refused.phase, refused.message);
      await this.reportStart(live);
      const failed = await runDeletionHooks(this.hookRun(), 'PreDelete', this.hooks.preDelete, deadline);
      if (failed) return await this.finish('Failed', `${failed}; nothing was deleted.`);
      return await this.loop(deadline);
    } catch (error) {
      // An API refusal (403, 422, …) or manifests that do not render are the outcome; transient trouble is
      // retried by the queue and resumes.
      if (error instanceof BotError) return this.finish('Error', error.message);
      if (!(error instanceof ClusterError) || error.transient) throw error;
      const done = this.deleted.reduce((n, w) => n + w.resources.length, 0);
      return this.finish(
        'Error',
        `${error.message} (${done} resource${done === 1 ? '' : 's'} deleted before this)`,
      );
    } finally {
      for (const w of this.watches) w.stop();
    }
  }

  /**
   * Before anything runs: the plan now must be the one confirmed (its hash), and every `Delete=confirm` object in
   * it must be confirmed — else nothing is deleted (not even a PreDelete hook created). Undefined when it may run.
   */
  private checkPlan(live: readonly KubeObject[]): { phase: 'Failed' | 'Error'; message: string } | undefined {
    const plan = planDeletion(this.input.app, live, this.input.cascade, this.hooks);
    const name = this.app.name;
    if (this.input.planHash !== undefined && planHash(plan) !== this.input.planHash) {
      const now = plan.waves.flatMap((w) => w.resources);
      const would =
        now.length > 0 ? `it would now delete ${listKeys(now)}` : 'it would now delete no resources';
      return {
        phase: 'Error',
        message: `The cluster changed since the plan was confirmed (${would}); nothing was deleted. Run /sync delete ${name} again to see the new plan.`,
      };
    }
    const confirmed = new Set(this.input.confirmed);
    const unconfirmed = plan.confirm.filter((k) => !confirmed.has(formatResourceKey(k)));
    if (unconfirmed.length > 0) return { phase: 'Failed', message: unconfirmedMessage(name, unconfirmed) };
    return undefined;
  }

  /** OperationStarted with the planned waves, so the thread knows how many replies to expect. */
  private async reportStart(live: readonly KubeObject[]): Promise<void> {
    const { reporter } = this.input;
    const plan = planDeletion(this.app, live);
    await reporter.report({
      type: 'OperationStarted',
      at: new Date().toISOString(),
      application: this.app.name,
      revision: '',
      operation: this.input.operation,
      waves: plan.waves.map((w, i) => ({
        phase: 'Sync',
        wave: w.wave,
        index: i + 1,
        total: plan.waves.length,
        tasks: w.resources.map(taskRefOfKey),
      })),
      resumed: this.input.initialState !== undefined,
    });
  }

  private async loop(deadline: number): Promise<OperationState> {
    const { signal } = this.input;
    for (;;) {
      if (signal?.aborted) return this.finish('Failed', 'Operation terminated');
      this.wakeup.reset();
      const live = await listTrackedLiveObjects(this.input.cluster, this.app.name, this.input.tracking);
      const step = this.confirmedStep(live);
      if (step.action === 'await-confirmation')
        return this.finish('Failed', unconfirmedMessage(this.app.name, step.objects));
      if (step.action === 'wait') {
        // A child Application left Terminating (a deletion resumed after a crash): finalize it now.
        const children = live.filter((o) => o.metadata.deletionTimestamp && isFinalizedChildApplication(o));
        for (const child of children) await this.deleteChild(child);
        if (children.length > 0) continue;
        this.watch(live.filter((o) => o.metadata.deletionTimestamp !== undefined));
        if (Date.now() >= deadline)
          return this.finish('Failed', timeoutMessage(this.input.timeoutMs, step.terminating));
        await this.wakeup.wait(Math.min(this.input.relistMs ?? 2000, deadline - Date.now()), signal);
        continue;
      }
      if (step.action === 'delete') {
        this.watch(step.objects);
        await this.deleteWave(step.wave, step.objects, step.propagationPolicy);
        continue;
      }
      await this.reportKept(step.kept);
      if (this.cascades()) {
        const failed = await runDeletionHooks(this.hookRun(), 'PostDelete', this.hooks.postDelete, deadline);
        if (failed) return this.finish('Failed', `${failed}; the Application was not removed.`);
      }
      const removed = await removeApplicationObject(this.input.cluster, this.app);
      return this.finish('Succeeded', this.successMessage(step.kept.length, removed));
    }
  }

  private cascades(): boolean {
    return this.app.finalizers.some((f) => CASCADE_FINALIZERS.includes(f));
  }

  /** What running the hooks needs from this deletion (./run-deletion-hooks.ts). */
  private hookRun(): DeletionHookRun {
    return {
      app: this.app,
      cluster: this.input.cluster,
      tracking: this.input.tracking,
      scriptedHealth: this.input.scriptedHealth,
      reporter: this.input.reporter,
      timeoutMs: this.input.timeoutMs,
      watch: (objects) => this.watch(objects),
      waitFor: (done, deadline) => this.waitFor(done, deadline),
    };
  }

  /** Re-check `done` on every watch event (or every relist interval) until it holds or the deadline passes. */
  private async waitFor(done: () => Promise<boolean>, deadline: number): Promise<boolean> {
    for (;;) {
      this.wakeup.reset();
      if (await done()) return true;
      if (Date.now() >= deadline || this.input.signal?.aborted) return false;
      await this.wakeup.wait(Math.min(this.input.relistMs ?? 2000, deadline - Date.now()), this.input.signal);
    }
  }

  /** The next step, with `Delete=confirm` objects allowed when every one of them was confirmed. */
  private confirmedStep(live: readonly KubeObject[]) {
    const step = nextDeletionStep(this.app, live);
    if (step.action !== 'await-confirmation') return step;
    const confirmed = new Set(this.input.confirmed);
    if (!step.objects.every((k) => confirmed.has(formatResourceKey(k)))) return step;
    return nextDeletionStep(this.app, live, { deletionConfirmed: true });
  }

  private async deleteWave(
    wave: number,
    objects: readonly KubeObject[],
    propagationPolicy: 'Foreground' | 'Background',
  ): Promise<void> {
    for (const child of objects.filter(isFinalizedChildApplication)) await this.deleteChild(child);
    await Promise.all(
      objects.map(async (o) => {
        try {
          await this.input.cluster.delete(refOf(o), { propagationPolicy });
        } catch (error) {
          // A child Application finalized above is already gone.
          if (!isNotFound(error)) throw error;
        }
      }),
    );
    const resources = objects.map(taskRefOf);
    this.deleted.push({ wave, resources });
    await this.input.reporter.report({
      type: 'ResourcesDeleted',
      at: new Date().toISOString(),
      syncWave: wave,
      propagationPolicy,
      resources,
    });
    await this.input.persist?.(this.state('Running', `deleted wave ${wave}`));
  }

  /**
   * Finalize a child Application (App of Apps) as Argo CD's controller would: delete its resources per its own
   * finalizer, then the child object. @throws BotError naming the child when its deletion does not succeed.
   */
  private async deleteChild(object: KubeObject): Promise<void> {
    const child = applicationFromObject(object, { file: `cluster:${this.app.name}`, line: 1 });
    const state = await deleteApplication({
      app: child,
      cascade: undefined,
      confirmed: this.input.confirmed,
      operation: this.input.operation,
      cluster: this.input.cluster,
      ...(this.input.tracking ? { tracking: this.input.tracking } : {}),
      reporter: { report: async () => {} },
      ...(this.input.signal ? { signal: this.input.signal } : {}),
      timeoutMs: this.input.timeoutMs,
      ...(this.input.relistMs ? { relistMs: this.input.relistMs } : {}),
    });
    if (state.phase !== 'Succeeded') {
      throw new BotError(
        'cluster_error',
        `child Application ${child.name} could not be deleted: ${state.message}`,
      );
    }
  }

  private async reportKept(kept: readonly KeptResource[]): Promise<void> {
    if (kept.length === 0) return;
    await this.input.reporter.report({
      type: 'ResourcesKept',
      at: new Date().toISOString(),
      kept: kept.map((k) => ({ task: taskRefOfKey(k.key), reason: k.reason })),
    });
  }

  private successMessage(keptCount: number, removed: boolean): string {
    const count = this.deleted.reduce((n, w) => n + w.resources.length, 0);
    const parts = [
      this.cascades()
        ? `${count} resource${count === 1 ? '' : 's'} deleted in ${this.deleted.length} wave${this.deleted.length === 1 ? '' : 's'}`
        : 'no resources deleted (no resources finalizer: they are orphaned)',
      ...(keptCount > 0 ? [`${keptCount} kept`] : []),
      removed ? 'Application object removed from the cluster' : 'no Application object in the cluster',
    ];
    return `${parts.join('; ')}. ${this.app.name} stays in the wavesync.yaml registry (it comes from git): remove it there, or the next /sync ${this.app.name} creates it all again.`;
  }

  /** Watch the kinds of `objects` so a deletion wakes the wait at once. */
  private watch(objects: readonly KubeObject[]): void {
    const targets: WatchTarget[] = [];
    for (const o of objects) {
      const key = `${o.apiVersion}/${o.kind}`;
      if (this.watched.has(key)) continue;
      this.watched.add(key);
      targets.push({ apiVersion: o.apiVersion, kind: o.kind, namespace: '' });
    }
    if (targets.length > 0) this.watches.push(this.input.cluster.watch(targets, () => this.wakeup.notify()));
  }

  private state(phase: OperationState['phase'], message: string): OperationState {
    return {
      operation: this.input.operation,
      phase,
      message,
      syncResult: { revision: '', resources: [] },
      startedAt: this.startedAt,
      ...(phase === 'Running' ? {} : { finishedAt: new Date().toISOString() }),
    };
  }

  private async finish(phase: 'Succeeded' | 'Failed' | 'Error', message: string): Promise<OperationState> {
    const state = this.state(phase, message);
    await this.input.persist?.(state);
    await this.input.reporter.report({
      type: 'OperationCompleted',
      at: state.finishedAt!,
      phase,
      message,
      durationMs: Date.parse(state.finishedAt!) - Date.parse(state.startedAt),
      state,
    });
    return state;
  }
}
