/**
 * The steps of an ApplicationSet's `strategy: RollingSync` over its generated Applications (Argo CD
 * `applicationset/progressivesync/progressive_sync.go`; Progressive-Syncs.md): a step selects an Application when
 * every `matchExpressions` entry holds on the Application's labels (`In`: label present with one of the values;
 * `NotIn`: label absent, or its value not listed; any other operator is an issue and selects nothing); an
 * Application belongs to the first step that selects it (later matches are reported as duplicates); one that no
 * step selects is never synced by the rollout. `maxUpdate` (int or percent, default 100%) is how many of a step's
 * Applications are updated at once: a percent rounds down but is at least 1 unless it is `0%`; 0 updates none.
 * `wavesync appset` prints this plan; `/sync <appset>` runs it (src/app-of-apps/rollout-driver.ts).
 */
import type { Application } from '../../domain/index.js';
import type { ApplicationSetManifest } from './applicationset-schema.js';

interface RolloutStep {
  /** 1-based, as people count steps. */
  number: number;
  applications: string[];
  /** How many are updated at once (the step's size when maxUpdate is absent). */
  atOnce: number;
  /** `maxUpdate` as written, if given. */
  maxUpdate?: number | string;
}

export interface RolloutPlan {
  steps: RolloutStep[];
  /** Applications no step selects: never synced by the rollout. */
  unassigned: string[];
  /** Applications selected by more than one step (they belong to the first). */
  duplicates: { application: string; steps: number[] }[];
  /** Invalid expressions, by key path. */
  issues: string[];
}

/** The rollout plan, or undefined when the ApplicationSet syncs everything at once (no RollingSync steps). */
export function rolloutPlan(
  manifest: ApplicationSetManifest,
  applications: readonly Pick<Application, 'name' | 'labels'>[],
): RolloutPlan | undefined {
  const strategy = manifest.spec.strategy;
  const steps = strategy?.rollingSync?.steps ?? [];
  if (strategy?.type !== 'RollingSync' || steps.length === 0) return undefined;
  const issues: string[] = [];
  steps.forEach((step, i) => {
    (step.matchExpressions ?? []).forEach((e, j) => {
      if (e.operator !== 'In' && e.operator !== 'NotIn') {
        issues.push(
          `spec.strategy.rollingSync.steps[${i}].matchExpressions[${j}].operator ${e.operator}: only In and NotIn are valid; this step selects no Application`,
        );
      }
    });
  });
  const selects = (stepIndex: number, labels: Readonly<Record<string, string>>) =>
    (steps[stepIndex]?.matchExpressions ?? []).every((e) => {
      const has = Object.hasOwn(labels, e.key);
      const values = e.values ?? [];
      if (e.operator === 'In') return has && values.includes(labels[e.key] as string);
      if (e.operator === 'NotIn') return !has || !values.includes(labels[e.key] as string);
      return false;
    });
  const members: string[][] = steps.map(() => []);
  const unassigned: string[] = [];
  const duplicates: RolloutPlan['duplicates'] = [];
  for (const app of applications) {
    const matching = steps.flatMap((_, i) => (selects(i, app.labels) ? [i] : []));
    const first = matching[0];
    if (first === undefined) unassigned.push(app.name);
    else members[first]?.push(app.name);
    if (matching.length > 1) duplicates.push({ application: app.name, steps: matching.map((i) => i + 1) });
  }
  return {
    steps: steps.map((step, i) => {
      const names = members[i] ?? [];
      return {
        number: i + 1,
        applications: names,
        atOnce: atOnce(step.maxUpdate, names.length),
        ...(step.maxUpdate === undefined ? {} : { maxUpdate: step.maxUpdate }),
      };
    }),
    unassigned,
    duplicates,
    issues,
  };
}

/** GetScaledValueFromIntOrPercent(maxUpdate, size, roundUp=false), a percent other than 0% at least 1. */
function atOnce(maxUpdate: number | string | undefined, size: number): number {
  if (maxUpdate === undefined) return size;
  if (typeof maxUpdate === 'number') return Math.min(Math.max(maxUpdate, 0), size);
  const percent = /^(\d+)%$/.exec(maxUpdate.trim());
  if (!percent) return Math.min(Math.max(Number.parseInt(maxUpdate, 10) || 0, 0), size);
  const p = Number(percent[1]);
  if (p === 0) return 0;
  return Math.min(Math.max(Math.floor((p * size) / 100), 1), size);
}

/** The plan as lines for people (`wavesync appset` prints them on stderr). */
export function describeRollout(name: string, plan: RolloutPlan): string[] {
  const lines = plan.steps.map((s) => {
    const apps = s.applications.length === 0 ? '(no Application)' : s.applications.join(', ');
    const pace =
      s.maxUpdate === undefined
        ? 'all at once'
        : s.atOnce === 0
          ? `maxUpdate ${s.maxUpdate}: none updated by the rollout`
          : `maxUpdate ${s.maxUpdate}: ${s.atOnce} at a time`;
    return `rollout of ApplicationSet ${name}: step ${s.number}: ${apps} (${pace})`;
  });
  if (plan.unassigned.length > 0) {
    lines.push(
      `rollout of ApplicationSet ${name}: in no step, never synced by the rollout: ${plan.unassigned.join(', ')}`,
    );
  }
  for (const d of plan.duplicates) {
    lines.push(
      `rollout of ApplicationSet ${name}: ${d.application} is selected by steps ${d.steps.join(', ')}; it belongs to step ${d.steps[0]}`,
    );
  }
  return [...lines, ...plan.issues.map((i) => `rollout of ApplicationSet ${name}: ${i}`)];
}
