/**
 * Promotion pipelines (wavesync.yaml `promotion.pipelines`) looked up and checked against the Applications: which
 * pipeline a stage belongs to, its neighbours, and whether its stages can be pinned to one another's revision.
 *
 * A revision moves between stages as it is — the git SHA of each source, or a Helm chart version — so every stage
 * must have the same number of sources, each from the same repository (and the same chart), and none may be a
 * local folder (whose "revision" is a hash of its files, nothing another Application can be pinned to).
 */
import type { Application, ApplicationSource } from '../domain/index.js';
import { BotError } from '../domain/index.js';
import type { PipelineSettings, Settings } from '../settings/index.js';

/** One pipeline, by name. */
export interface Pipeline extends PipelineSettings {
  name: string;
}

/** Where an Application stands in its pipeline. */
export interface StageRef {
  pipeline: Pipeline;
  /** 0 = the first stage. */
  index: number;
  stage: string;
}

type PromotionOnly = Pick<Settings, 'promotion'>;

/** The pipeline named `name`, or undefined. */
function pipelineNamed(settings: PromotionOnly, name: string): Pipeline | undefined {
  const found = Object.hasOwn(settings.promotion.pipelines, name)
    ? settings.promotion.pipelines[name]
    : undefined;
  return found ? { name, ...found } : undefined;
}

/** Every pipeline, in the file's order. */
export function pipelinesOf(settings: PromotionOnly): Pipeline[] {
  return Object.entries(settings.promotion.pipelines).map(([name, p]) => ({ name, ...p }));
}

/** The pipeline and position of Application `application`, or undefined when it is no stage. */
export function stageOf(settings: PromotionOnly, application: string): StageRef | undefined {
  for (const pipeline of pipelinesOf(settings)) {
    const index = pipeline.stages.indexOf(application);
    if (index >= 0) return { pipeline, index, stage: application };
  }
  return undefined;
}

/**
 * The pipeline `/sync promote <name>` and `/sync pipeline <name>` mean: a pipeline's own name, else the pipeline
 * that has an Application of that name as a stage.
 */
export function resolvePipeline(settings: PromotionOnly, name: string): Pipeline | undefined {
  return pipelineNamed(settings, name) ?? stageOf(settings, name)?.pipeline;
}

/**
 * Each problem of `settings.promotion.pipelines` against `apps`, one sentence each naming the pipeline, the stage
 * and the rule (wavesync.yaml's path): an unknown Application (with the known names closest to it), a local folder
 * source, sources that differ from the first stage's in number, repository or chart.
 */
export function pipelineProblems(
  settings: PromotionOnly & Pick<Settings, 'file'>,
  apps: readonly Application[],
): string[] {
  const byName = new Map(apps.map((a) => [a.name, a]));
  const problems: string[] = [];
  for (const pipeline of pipelinesOf(settings)) {
    const at = `${settings.file}: promotion.pipelines.${pipeline.name}`;
    const first = byName.get(pipeline.stages[0] ?? '');
    for (const [i, stage] of pipeline.stages.entries()) {
      const app = byName.get(stage);
      if (!app) {
        problems.push(`${at}.stages[${i}]: no Application named ${stage} (known: ${knownNames(apps)})`);
        continue;
      }
      const local = sourcesOf(app).findIndex((s) => s.repoURL === '');
      if (local >= 0) {
        problems.push(
          `${at}.stages[${i}]: ${stage} (${app.origin}) is read from a local folder, which has no revisions to ` +
            'promote: move its manifests to git or a chart repository',
        );
        continue;
      }
      if (first && i > 0) {
        const differs = sourceMismatch(first, app);
        if (differs) problems.push(`${at}.stages[${i}]: ${stage} ${differs}`);
      }
    }
  }
  return problems;
}

/**
 * Refuse to start with pipelines that cannot work (pipelineProblems): BotError('invalid_config') listing each.
 * The composition root calls it next to assertKnownEnvironments.
 */
export function assertPromotionPipelines(
  settings: PromotionOnly & Pick<Settings, 'file'>,
  apps: readonly Application[],
): void {
  const problems = pipelineProblems(settings, apps);
  if (problems.length > 0) throw new BotError('invalid_config', problems.join('\n'));
}

function sourcesOf(app: Pick<Application, 'source' | 'sources'>): ApplicationSource[] {
  return app.sources ?? [app.source];
}

/** Why `app`'s sources cannot take `first`'s revision, or undefined. */
function sourceMismatch(first: Application, app: Application): string | undefined {
  const a = sourcesOf(first);
  const b = sourcesOf(app);
  if (a.length !== b.length) {
    return `has ${b.length} source(s) and ${first.name} ${a.length}: a revision moves source by source, so every stage needs the same sources`;
  }
  for (const [i, source] of b.entries()) {
    const other = a[i]!;
    const label = b.length > 1 ? `sources[${i}]` : 'source';
    if (source.repoURL !== other.repoURL) {
      return `${label}.repoURL is ${source.repoURL} and ${first.name}'s ${other.repoURL}: a revision of one repository means nothing in another`;
    }
    if ((source.chart ?? '') !== (other.chart ?? '')) {
      return `${label}.chart is ${source.chart ?? '(none)'} and ${first.name}'s ${other.chart ?? '(none)'}: a chart version belongs to its chart`;
    }
  }
  return undefined;
}

function knownNames(apps: readonly Application[]): string {
  const names = apps.map((a) => a.name).sort();
  if (names.length === 0) return 'none';
  return names.length > 12 ? `${names.slice(0, 12).join(', ')}, …` : names.join(', ');
}
