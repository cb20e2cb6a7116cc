/**
 * batch/v1 Job controller: creates Pods from the template up to parallelism, counts succeeded/failed Pods once
 * each, retries failed Pods after exponential back-off (10 s · 2^(n-1), simulated), honours backoffLimit,
 * activeDeadlineSeconds and ttlSecondsAfterFinished, and finishes with the conditions Kubernetes ≥ 1.31 writes:
 * SuccessCriteriaMet + Complete (reason CompletionsReached) or FailureTarget + Failed (BackoffLimitExceeded /
 * DeadlineExceeded), plus startTime, completionTime, active/ready/succeeded/failed.
 */
import { randomSuffix } from '../api/object-api.js';
import { type JsonObject, type KubeObject, timestamp } from '../store/kube-object.js';
import { type Condition, type ControllerContext, statusOf } from './controller-context.js';
import { isControlledBy, isPodActive, isPodReady, podFromTemplate, podPhaseOf } from './owned-objects.js';
import { startReconciler } from './reconciler.js';
import { keyOf, splitKey } from './work-queue.js';

const COMPONENT = 'job-controller';

interface JobSpec {
  parallelism?: number;
  completions?: number;
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  suspend?: boolean;
  template: JsonObject;
}

export function jobController(ctx: ControllerContext): void {
  const counted = new Map<string, Set<string>>();
  /** Simulated second each Job started / finished (kept precisely here; API timestamps have 1 s resolution). */
  const startedAt = new Map<string, number>();
  const finishedAt = new Map<string, number>();
  const timers = new Map<string, () => void>();
  const queue = startReconciler(
    ctx,
    { typeKey: 'batch/jobs', kind: 'Job', childTypeKey: '/pods' },
    reconcile,
  );

  function later(job: KubeObject, tag: string, seconds: number): void {
    const id = `${job.metadata.uid}/${tag}`;
    if (timers.has(id)) return;
    timers.set(
      id,
      ctx.scheduler.after(seconds, () => queue.add(keyOf(job.metadata.namespace, job.metadata.name))),
    );
  }

  function reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const job = ctx.client.get('batch/v1', 'Job', namespace, name);
    if (!job || job.metadata.deletionTimestamp || ctx.isPinned(job)) return;
    const spec = job.spec as JobSpec;
    const status = { ...statusOf(job) } as Record<string, unknown>;
    const conditions = (status.conditions ?? []) as Condition[];
    if (conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) {
      expireAfterTtl(job, spec);
      return;
    }
    if (spec.suspend) return;
    status.startTime ??= timestamp();
    const pods = ctx.client.list('v1', 'Pod', namespace).filter((p) => isControlledBy(p, job));
    const seen = counted.get(job.metadata.uid ?? '') ?? new Set<string>();
    counted.set(job.metadata.uid ?? '', seen);
    let succeeded = Number(status.succeeded ?? 0);
    let failed = Number(status.failed ?? 0);
    for (const pod of pods) {
      const phase = podPhaseOf(pod);
      if ((phase !== 'Succeeded' && phase !== 'Failed') || seen.has(pod.metadata.uid ?? '')) continue;
      seen.add(pod.metadata.uid ?? '');
      if (phase === 'Succeeded') succeeded += 1;
      else failed += 1;
    }
    const active = pods.filter(isPodActive);
    const completions = spec.completions ?? 1;
    const deadline = spec.activeDeadlineSeconds;
    const uid = job.metadata.uid ?? '';
    if (!startedAt.has(uid)) startedAt.set(uid, ctx.scheduler.now());
    const elapsed = ctx.scheduler.now() - (startedAt.get(uid) ?? 0);
    let finish: Condition[] | undefined;
    if (succeeded >= completions)
      finish = finished(
        'SuccessCriteriaMet',
        'Complete',
        'CompletionsReached',
        'Reached expected number of succeeded pods',
      );
    else if (failed > (spec.backoffLimit ?? 6))
      finish = finished(
        'FailureTarget',
        'Failed',
        'BackoffLimitExceeded',
        'Job has reached the specified backoff limit',
      );
    else if (deadline !== undefined && elapsed >= deadline - 0.05)
      finish = finished(
        'FailureTarget',
        'Failed',
        'DeadlineExceeded',
        'Job was active longer than specified deadline',
      );
    if (finish) {
      for (const pod of active)
        ctx.client.delete({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', namespace });
      const [, last] = finish;
      Object.assign(status, { conditions: [...conditions, ...finish], active: 0, ready: 0, terminating: 0 });
      if (last?.type === 'Complete') {
        status.completionTime = timestamp();
        ctx.events.normal(job, 'Completed', 'Job completed', COMPONENT);
      } else ctx.events.warning(job, last?.reason ?? 'Failed', last?.message ?? '', COMPONENT);
    } else {
      const missing = Math.min(spec.parallelism ?? 1, completions - succeeded) - active.length;
      const backoff = failed === 0 ? 0 : Math.min(10 * 2 ** (failed - 1), 360);
      for (let i = 0; i < missing; i += 1) {
        if (backoff > 0 && !timers.has(`${job.metadata.uid}/retry-${failed}`)) {
          later(job, `retry-${failed}`, backoff);
          break;
        }
        const pod = ctx.client.create(podFromTemplate(job, spec.template, `${name}-${randomSuffix()}`));
        ctx.events.normal(job, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, COMPONENT);
      }
      if (deadline !== undefined) later(job, 'deadline', Math.max(deadline - elapsed, 0) + 0.1);
      const live = ctx.client
        .list('v1', 'Pod', namespace)
        .filter((p) => isControlledBy(p, job) && isPodActive(p));
      Object.assign(status, { active: live.length, ready: live.filter(isPodReady).length, terminating: 0 });
    }
    status.succeeded = succeeded;
    status.failed = failed;
    status.uncountedTerminatedPods = {};
    ctx.client.updateStatus({ ...job, status: tidy(status) });
  }

  function expireAfterTtl(job: KubeObject, spec: JobSpec): void {
    if (spec.ttlSecondsAfterFinished === undefined) return;
    const uid = job.metadata.uid ?? '';
    if (!finishedAt.has(uid)) finishedAt.set(uid, ctx.scheduler.now());
    const remaining = spec.ttlSecondsAfterFinished - (ctx.scheduler.now() - (finishedAt.get(uid) ?? 0));
    if (remaining > 0.05) {
      later(job, `ttl-${finishedAt.get(uid)}`, remaining + 0.1);
      return;
    }
    ctx.client.delete(
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: job.metadata.name ?? '',
        namespace: job.metadata.namespace,
      },
      'Foreground',
    );
  }
}

function finished(interim: string, final: string, reason: string, message: string): Condition[] {
  const now = timestamp();
  return [interim, final].map((type) => ({
    type,
    status: 'True',
    reason,
    message,
    lastProbeTime: now,
    lastTransitionTime: now,
  }));
}

/** active/failed are omitted when zero, as batch/v1 JobStatus serializes them; ready/terminating stay. */
function tidy(status: Record<string, unknown>): Record<string, unknown> {
  const out = { ...status };
  for (const key of ['active', 'failed', 'succeeded']) if (out[key] === 0) delete out[key];
  return out;
}
