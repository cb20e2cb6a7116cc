/**
 * Generate the Applications of one ApplicationSet (Argo CD `applicationset/controllers/template/template.go`
 * GenerateApplications): the top-level generators in order, each one's template merged over `spec.template`
 * (fields the generator template sets win), each parameter set rendered into an Application, then checked as an
 * Application. Every generated Application knows its ApplicationSet as Argo CD records it: an ownerReference
 * (kind ApplicationSet, controller: true). A generator that needs a service wavesync cannot reach is refused by
 * name — the others still generate — and the refusal says which Applications are missing.
 */
import type { Application } from '../../domain/index.js';
import type { Settings } from '../../settings/index.js';
import { applicationFromObject } from '../parse-applications.js';
import {
  type ApplicationSetManifest,
  type Generator,
  UNREACHABLE_GENERATORS,
} from './applicationset-schema.js';
import type { GeneratorCluster, GeneratorContext, GitCheckouts } from './generator-context.js';
import { generatorKind, runGenerator } from './generators.js';
import { parseGoTemplateOptions } from './go-template/go-template.js';
import { fillEmpty } from './params.js';
import { renderApplication, type TemplateEngine } from './render-template.js';
import { type RolloutPlan, rolloutPlan } from './rollout-steps.js';
import { TemplateError } from './template-error.js';

/** The namespace Argo CD's ApplicationSet controller runs in when metadata.namespace is absent. */
const DEFAULT_NAMESPACE = 'argocd';

export interface ApplicationSetInput {
  manifest: ApplicationSetManifest;
  /** Where it was read (file), and its line: origins and messages say `file:line`. */
  file: string;
  line: number;
  /** The line of a key path in the file (ApplicationSetDocument.lineOf); errors name it instead of `line`. */
  lineOf?(path: string): number | undefined;
}

export interface GenerateDeps {
  clusters: readonly GeneratorCluster[];
  git?: GitCheckouts;
}

/** A generator wavesync did not run: which, why, and the Applications therefore missing. */
interface RefusedGenerator {
  where: string;
  generator: string;
  message: string;
}

export interface GeneratedApplications {
  applicationSet: string;
  namespace: string;
  /** The generated Application objects, as Argo CD would create them. */
  objects: Record<string, unknown>[];
  applications: Application[];
  refused: RefusedGenerator[];
  /** Fields accepted with a caveat (deletionOrder, applicationsSync policies…): what wavesync does instead. */
  notes: string[];
  /** `strategy: RollingSync`: which step each generated Application is in (undefined: all at once). */
  rollout?: RolloutPlan;
}

export class ApplicationSetError extends Error {}

/**
 * Generate `input`'s Applications.
 * @throws ApplicationSetError naming the ApplicationSet, the generator or template field and the cause (a template
 *   error, a missing key with missingkey=error, a matrix of three, a duplicate or empty generated name…).
 */
export async function generateApplications(
  input: ApplicationSetInput,
  deps: GenerateDeps,
): Promise<GeneratedApplications> {
  const { manifest, file, line } = input;
  const name = manifest.metadata.name;
  const namespace = manifest.metadata.namespace ?? DEFAULT_NAMESPACE;
  /** The error at the line of `path` (default: the key path the message starts with), else the document's. */
  const fail = (message: string, path = /^(spec\.[^\s:]+)/.exec(message)?.[1]): never => {
    const at = (path === undefined ? undefined : input.lineOf?.(path)) ?? line;
    throw new ApplicationSetError(`${file}:${at}: ApplicationSet "${name}": ${message}`);
  };
  const spec = manifest.spec;
  let engine: TemplateEngine;
  try {
    engine = {
      goTemplate: spec.goTemplate === true,
      options: parseGoTemplateOptions(spec.goTemplateOptions ?? []),
    };
  } catch (error) {
    return fail(`spec.goTemplateOptions: ${(error as Error).message}`);
  }
  const result: GeneratedApplications = {
    applicationSet: name,
    namespace,
    objects: [],
    applications: [],
    refused: [],
    notes: notesFor(manifest),
  };
  const preserve = spec.syncPolicy?.preserveResourcesOnDeletion === true;
  for (const [i, generator] of spec.generators.entries()) {
    const where = `spec.generators[${i}]`;
    const unreachable = findUnreachable(generator, where);
    if (unreachable) {
      result.refused.push(unreachable);
      continue;
    }
    const ctx: GeneratorContext = {
      engine,
      clusters: deps.clusters,
      git: deps.git,
      where,
      revisions: new Map(),
    };
    let sets: Record<string, unknown>[];
    try {
      generatorKind(generator as Record<string, unknown>);
      sets = await runGenerator(generator, ctx);
    } catch (error) {
      if (error instanceof TemplateError)
        return fail(error.message.startsWith('spec.') ? error.message : `${where}: ${error.message}`);
      throw error;
    }
    const template = fillEmpty(generatorTemplate(generator) ?? {}, spec.template) as Record<string, unknown>;
    for (const params of sets) {
      let object: Record<string, unknown>;
      try {
        object = renderApplication({
          template,
          params,
          engine,
          preserveResourcesOnDeletion: preserve,
          templatePatch: spec.templatePatch,
          namespace,
        });
      } catch (error) {
        if (error instanceof TemplateError) return fail(error.message);
        throw error;
      }
      result.objects.push(withOwner(object, manifest));
    }
  }
  const seen = new Set<string>();
  for (const object of result.objects) {
    const appName = (object.metadata as { name?: unknown }).name;
    if (typeof appName !== 'string' || appName === '') {
      fail(
        'a generated Application has an empty name (metadata.name rendered to "")',
        'spec.template.metadata.name',
      );
    }
    if (seen.has(appName as string)) {
      fail(
        `ApplicationSet ${name} contains applications with duplicate name: ${String(appName)}`,
        'spec.template.metadata.name',
      );
    }
    seen.add(appName as string);
    try {
      result.applications.push(
        applicationFromObject(object as never, { file: `${file}:${line} (ApplicationSet ${name})`, line: 0 }),
      );
    } catch (error) {
      const cause = (error as Error).message.replace(/^.*?invalid Application: /, '');
      const field = /^(spec\.[^\s:]+|metadata\.[^\s:]+)/.exec(cause)?.[1];
      fail(`generated Application "${String(appName)}": ${cause}`, field && `spec.template.${field}`);
    }
  }
  for (const app of result.applications) app.origin = `${file}:${line} (ApplicationSet ${name})`;
  const rollout = rolloutPlan(manifest, result.applications);
  if (rollout) result.rollout = rollout;
  return result;
}

function generatorTemplate(generator: Generator): Record<string, unknown> | undefined {
  for (const kind of ['list', 'clusters', 'git', 'matrix', 'merge'] as const) {
    const spec = generator[kind] as { template?: Record<string, unknown> } | undefined;
    if (spec) return spec.template;
  }
  return undefined;
}

function findUnreachable(generator: Generator, where: string): RefusedGenerator | undefined {
  const nested = [
    ...(generator.matrix?.generators ?? []).map((g, i) => [g, `${where}.matrix.generators[${i}]`] as const),
    ...(generator.merge?.generators ?? []).map((g, i) => [g, `${where}.merge.generators[${i}]`] as const),
  ];
  for (const [kind, service] of Object.entries(UNREACHABLE_GENERATORS)) {
    if ((generator as Record<string, unknown>)[kind] !== undefined) {
      return {
        where,
        generator: kind,
        message: `${where}.${kind}: not supported: it needs ${service}, which wavesync cannot reach; the Applications this generator would generate are missing`,
      };
    }
  }
  for (const [child, childWhere] of nested) {
    const refused = findUnreachable(child as Generator, childWhere);
    if (refused) {
      return {
        ...refused,
        where,
        message: `${refused.message.replace(/; the Applications.*$/, '')}; every Application of ${where} is missing`,
      };
    }
  }
  return undefined;
}

function withOwner(
  object: Record<string, unknown>,
  manifest: ApplicationSetManifest,
): Record<string, unknown> {
  const metadata = object.metadata as Record<string, unknown>;
  metadata.ownerReferences = [
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      name: manifest.metadata.name,
      ...(manifest.metadata.uid === undefined ? {} : { uid: manifest.metadata.uid }),
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  return object;
}

function notesFor(manifest: ApplicationSetManifest): string[] {
  const notes: string[] = [];
  const { strategy, syncPolicy } = manifest.spec;
  if (strategy?.deletionOrder !== undefined) {
    notes.push(
      `spec.strategy.deletionOrder ${strategy.deletionOrder}: no effect: wavesync deletes each removed Application's resources on its own (docs/applicationsets.md, When sources change)`,
    );
  }
  for (const field of ['preservedFields', 'ignoreApplicationDifferences'] as const) {
    if (manifest.spec[field] !== undefined) {
      notes.push(
        `spec.${field}: no effect: it concerns the Application objects Argo CD's controller writes, and wavesync writes none`,
      );
    }
  }
  if (JSON.stringify(manifest.spec.generators).includes('"requeueAfterSeconds"')) {
    notes.push(
      'requeueAfterSeconds: wavesync reads git generators again with the registry, every defaults.registryRefreshSeconds',
    );
  }
  const policy = syncPolicy?.applicationsSync;
  if (policy === 'create-only' || policy === 'create-update') {
    notes.push(
      `spec.syncPolicy.applicationsSync ${policy}: wavesync keeps no Application objects, so generated Applications always follow the template and generators (as with sync); an Application that stops being generated keeps its resources, as in Argo CD`,
    );
  }
  return notes;
}

/** wavesync.yaml `clusters:` as the clusters an ApplicationSet cluster generator sees (Argo CD's cluster Secrets). */
export function generatorClusters(settings: Pick<Settings, 'clusters'>): GeneratorCluster[] {
  return settings.clusters.map((c) => ({
    name: c.name ?? c.server ?? c.context,
    server: c.server ?? '',
    labels: c.labels ?? {},
    annotations: c.annotations ?? {},
  }));
}

/** The name of the ApplicationSet that generated `app` (its controller ownerReference), if any. */
export function applicationSetOf(app: Pick<Application, 'manifest'>): string | undefined {
  const refs = (app.manifest.metadata as { ownerReferences?: unknown }).ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const owner = refs.find(
    (r: { kind?: unknown; apiVersion?: unknown }) =>
      r?.kind === 'ApplicationSet' && r.apiVersion === 'argoproj.io/v1alpha1',
  ) as { name?: unknown } | undefined;
  return typeof owner?.name === 'string' ? owner.name : undefined;
}
