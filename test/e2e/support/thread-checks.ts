/**
 * What the E2E tests check after a disruption (a killed worker, a failover, a reconnect): one thread per sync, and
 * each of the rails Application's hooks created once.
 */
import type { E2eStack } from './e2e-stack.js';

/** ts of the thread roots (one per queued sync) the bot posted in `channel`, oldest first. */
export function threadRoots(stack: Pick<E2eStack, 'slack'>, channel: string): string[] {
  return stack.slack
    .channelMessages(channel)
    .filter((m) => !m.threadTs)
    .map((m) => m.ts);
}

/**
 * Paths of the DELETEs of rails' hooks the simulator saw. A hook created twice would have been deleted first
 * (BeforeHookCreation), so a clean run shows only smoke-test, deleted once by its own HookSucceeded policy.
 */
export function railsHookDeletes(stack: Pick<E2eStack, 'sim'>): string[] {
  return stack.sim.requests
    .filter(
      (r) =>
        r.method === 'DELETE' && /\/(jobs\/db-migrate|jobs\/smoke-test|configmaps\/rails-env)\b/.test(r.path),
    )
    .map((r) => r.path.split('?')[0]!);
}

/**
 * The rails hooks' DELETE requests with their answers and times (ms after the first), for a failure message: a second
 * DELETE answered 404 is a repeated step (at-least-once), a second one answered 200/202 a hook created twice.
 */
export function railsHookDeleteTrace(stack: Pick<E2eStack, 'sim'>): string {
  const deletes = stack.sim.requests.filter(
    (r) =>
      r.method === 'DELETE' && /\/(jobs\/db-migrate|jobs\/smoke-test|configmaps\/rails-env)\b/.test(r.path),
  );
  const start = deletes[0]?.at ?? 0;
  return `hook DELETEs: ${deletes.map((r) => `${r.path.split('?')[0]} → ${r.code} at +${r.at - start} ms`).join('; ')}`;
}

export const RAILS_HOOK_DELETES_ONCE = ['/apis/batch/v1/namespaces/rails/jobs/smoke-test'];
