/**
 * The message of an operation ended by `operationTimeoutMs`: every task it was still waiting for, with its
 * current health, e.g. `Operation terminated: timed out after 30s waiting for apps/Deployment/web (Progressing:
 * Waiting for rollout to finish: 0 of 1 updated replicas are available...)`; when no task is running, the
 * operation's own running message (`… waiting for pruning confirmation of /ConfigMap/a`).
 */
import type { OperationState } from '../../domain/index.js';
import { healthOf } from '../health/health-of.js';
import type { SyncContext } from '../sync-context.js';
import { taskStateOf } from '../task-results.js';
import { planPass } from './plan-pass.js';

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

export async function timeoutMessage(ctx: SyncContext, state: OperationState): Promise<string> {
  const { tasks } = await planPass(ctx, state.startedAt);
  const waiting = await Promise.all(
    tasks
      .filter((t) => taskStateOf(state, t) === 'running')
      .map(async (t) => {
        const health = t.liveObj ? await healthOf(ctx, t.liveObj) : { status: 'Missing', message: '' };
        const detail = health ? ` (${health.status}${health.message ? `: ${health.message}` : ''})` : '';
        return `${t.group}/${t.kind}/${t.name}${detail}`;
      }),
  );
  // Nothing running: the wave waits for something else (a deletion, a pruning confirmation) — say what.
  const otherWait = state.message.startsWith('waiting for') ? ` ${state.message}` : '';
  const what = waiting.length > 0 ? ` waiting for ${waiting.join(', ')}` : otherWait;
  return `Operation terminated: timed out after ${seconds(ctx.options.operationTimeoutMs)}${what}`;
}
