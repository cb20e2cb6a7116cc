/**
 * The generators wavesync runs (Argo CD `applicationset/generators/`; semantics in the shared fixtures' FACTS.md):
 * list, clusters (wavesync.yaml `clusters:` stand for Argo CD's cluster Secrets), git directories and files
 * (git-generator.ts, over the project's git repository cache), matrix and merge; a generator-level `selector`
 * filters every one. Each returns its parameter sets in Argo CD's order.
 */
import { parse as parseYaml } from 'yaml';
import type { Generator } from './applicationset-schema.js';
import { type GeneratorContext, withValues } from './generator-context.js';
import { gitParams } from './git-generator.js';
import { normalizeName } from './go-template/argocd-names.js';
import { goString, isMap } from './go-template/go-value.js';
import {
  deepMergeOverride,
  flattenParams,
  type Params,
  selectorIsEmpty,
  selectorMatches,
  stringifyParams,
} from './params.js';
import { renderDeep, renderString, type TemplateEngine } from './render-template.js';
import { TemplateError } from './template-error.js';

const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';
const SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';

/** The parameter sets of `generator`, `selector` applied. */
export async function runGenerator(
  generator: Generator,
  ctx: GeneratorContext,
  depth = 0,
): Promise<Params[]> {
  const sets = await runUnfiltered(generator, ctx, depth);
  const selector = generator.selector;
  if (selectorIsEmpty(selector) || selector === undefined) return sets;
  return sets.filter((set) => selectorMatches(selector, flattenParams(set)));
}

async function runUnfiltered(generator: Generator, ctx: GeneratorContext, depth: number): Promise<Params[]> {
  if (generator.list) return listParams(generator.list, ctx);
  if (generator.clusters) return clusterParams(generator.clusters, ctx);
  if (generator.git) return gitParams(generator.git, ctx);
  if (generator.matrix) return matrixParams(generator.matrix.generators as Generator[], ctx, depth);
  if (generator.merge) {
    return mergeParams(generator.merge.generators as Generator[], generator.merge.mergeKeys, ctx, depth);
  }
  return [];
}

/** Which generator an entry holds (exactly one), or a message naming what is wrong. */
export function generatorKind(generator: Record<string, unknown>): string {
  const kinds = Object.keys(generator).filter((k) => k !== 'selector' && generator[k] !== undefined);
  if (kinds.length === 1) return kinds[0] as string;
  throw new TemplateError(
    kinds.length === 0
      ? 'no generator (one of list, clusters, git, matrix, merge)'
      : `found more than one generator (${kinds.join(', ')}); put each in its own entry`,
  );
}

function listParams(list: NonNullable<Generator['list']>, ctx: GeneratorContext): Params[] {
  const sets: Params[] = [];
  for (const [i, element] of (list.elements ?? []).entries()) {
    if (ctx.engine.goTemplate) {
      sets.push(structuredClone(element));
      continue;
    }
    const set: Params = {};
    for (const [key, value] of Object.entries(element)) {
      if (key === 'values' && isMap(value)) {
        for (const [vk, vv] of Object.entries(value)) {
          if (typeof vv !== 'string') {
            throw new TemplateError(
              `${ctx.where}.list.elements[${i}].values.${vk}: error parsing value as string: with goTemplate false every value must be a string`,
            );
          }
          set[`values.${vk}`] = vv;
        }
      } else if (typeof value !== 'string') {
        throw new TemplateError(
          `${ctx.where}.list.elements[${i}].${key}: error parsing value as string: with goTemplate false every element value must be a string (quote it, or set goTemplate: true)`,
        );
      } else set[key] = value;
    }
    sets.push(set);
  }
  if (list.elementsYaml !== undefined && list.elementsYaml.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = parseYaml(list.elementsYaml);
    } catch (error) {
      throw new TemplateError(`${ctx.where}.list.elementsYaml: not YAML: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed) || !parsed.every(isMap)) {
      throw new TemplateError(`${ctx.where}.list.elementsYaml: must be a YAML list of objects`);
    }
    sets.push(...parsed);
  }
  return sets;
}

function clusterParams(gen: NonNullable<Generator['clusters']>, ctx: GeneratorContext): Params[] {
  const selector = gen.selector ?? {};
  const matching = ctx.clusters.filter((c) =>
    selectorMatches(selector, { ...c.labels, [SECRET_TYPE_LABEL]: 'cluster' }),
  );
  const sets: Params[] = matching.map((c) => {
    const labels = { [SECRET_TYPE_LABEL]: 'cluster', ...c.labels };
    const base = {
      name: c.name,
      nameNormalized: normalizeName(c.name),
      server: c.server,
      project: c.project ?? '',
    };
    if (ctx.engine.goTemplate) {
      const metadata: Params = { labels };
      if (Object.keys(c.annotations).length > 0) metadata.annotations = c.annotations;
      return withValues({ ...base, metadata }, gen.values, ctx);
    }
    const flat: Params = { ...base };
    for (const [k, v] of Object.entries(labels)) flat[`metadata.labels.${k}`] = v;
    for (const [k, v] of Object.entries(c.annotations)) flat[`metadata.annotations.${k}`] = v;
    return withValues(flat, gen.values, ctx);
  });
  // Argo CD adds the cluster it runs in unless a selector is given or a cluster already has its address.
  if (selectorIsEmpty(gen.selector) && !ctx.clusters.some((c) => c.server === IN_CLUSTER_SERVER)) {
    sets.push(
      withValues(
        { name: 'in-cluster', nameNormalized: 'in-cluster', server: IN_CLUSTER_SERVER, project: '' },
        gen.values,
        ctx,
      ),
    );
  }
  return gen.flatList ? [{ clusters: sets }] : sets;
}

function checkNesting(children: Generator[], ctx: GeneratorContext, depth: number): void {
  if (depth >= 2)
    throw new TemplateError(`${ctx.where}: only one level of nested matrix or merge generators is allowed`);
  children.forEach((child, i) => {
    try {
      generatorKind(child as Record<string, unknown>);
    } catch (error) {
      throw new TemplateError(`${ctx.where}.generators[${i}]: ${(error as Error).message}`);
    }
  });
}

async function runChild(
  child: Generator,
  ctx: GeneratorContext,
  where: string,
  depth: number,
): Promise<Params[]> {
  // Templates of matrix/merge children are ignored (Argo CD runs them with an empty template).
  return runGenerator(child, { ...ctx, where }, depth + 1);
}

async function matrixParams(children: Generator[], ctx: GeneratorContext, depth: number): Promise<Params[]> {
  const where = `${ctx.where}.matrix`;
  if (children.length < 2)
    throw new TemplateError(`${where}: found less than two generators, Matrix support only two`);
  if (children.length > 2)
    throw new TemplateError(`${where}: found more than two generators, Matrix support only two`);
  checkNesting(children, { ...ctx, where }, depth);
  const [first, second] = children as [Generator, Generator];
  const out: Params[] = [];
  for (const a of await runChild(first, ctx, `${where}.generators[0]`, depth)) {
    // The second generator's spec is rendered with each set of the first (e.g. a git path from a list element).
    const rendered = renderChildSpec(second, a, ctx, `${where}.generators[1]`);
    for (const b of await runChild(rendered, ctx, `${where}.generators[1]`, depth)) {
      out.push(combine(a, b, ctx, where));
    }
  }
  return out;
}

function renderChildSpec(child: Generator, params: Params, ctx: GeneratorContext, where: string): Generator {
  const kind = generatorKind(child as Record<string, unknown>) as keyof Generator;
  const spec = child[kind] as Record<string, unknown>;
  const { values, template, ...rest } = spec;
  const rendered = renderDeep(rest, params, ctx.engine, `${where}.${String(kind)}`) as Record<
    string,
    unknown
  >;
  // `values` are pre-resolved against the first generator with missingkey=error; one that needs the child's own
  // parameters stays a template for the child to resolve.
  if (isMap(values)) {
    const strict: TemplateEngine = { ...ctx.engine, options: { missingKeyError: true } };
    rendered.values = Object.fromEntries(
      Object.entries(values).map(([k, v]) => {
        try {
          return [k, renderString(String(v), params, strict, where)];
        } catch {
          return [k, v];
        }
      }),
    );
  }
  if (template !== undefined) rendered.template = template;
  return { ...child, [kind]: rendered } as Generator;
}

function combine(a: Params, b: Params, ctx: GeneratorContext, where: string): Params {
  if (ctx.engine.goTemplate) return deepMergeOverride(b, a);
  const out: Params = stringifyParams(a);
  for (const [k, v] of Object.entries(stringifyParams(b))) {
    if (Object.hasOwn(out, k) && out[k] !== v) {
      throw new TemplateError(
        `${where}: found duplicate key ${k} with different value, a: ${String(out[k])} ,b: ${v}`,
      );
    }
    out[k] = v;
  }
  return out;
}

async function mergeParams(
  children: Generator[],
  mergeKeys: string[],
  ctx: GeneratorContext,
  depth: number,
): Promise<Params[]> {
  const where = `${ctx.where}.merge`;
  if (children.length < 2)
    throw new TemplateError(`${where}: found less than two generators, Merge requires two or more`);
  if (mergeKeys.length === 0)
    throw new TemplateError(`${where}: no merge keys were specified, Merge requires at least one`);
  checkNesting(children, { ...ctx, where }, depth);
  const keys = [...new Set(mergeKeys)];
  const keyOf = (set: Params) =>
    JSON.stringify(Object.fromEntries(keys.map((k) => [k, Object.hasOwn(set, k) ? goString(set[k]) : null])));
  const indexed = async (i: number) => {
    const sets = await runChild(children[i] as Generator, ctx, `${where}.generators[${i}]`, depth);
    const byKey = new Map<string, Params>();
    for (const set of sets) {
      const key = keyOf(set);
      if (byKey.has(key)) {
        throw new TemplateError(
          `${where}.generators[${i}]: the parameters from a generator were not unique by the given mergeKeys, Merge requires all param sets to be unique. Duplicate key was ${key}`,
        );
      }
      byKey.set(key, set);
    }
    return byKey;
  };
  const base = await indexed(0);
  for (let i = 1; i < children.length; i++) {
    for (const [key, set] of await indexed(i)) {
      const existing = base.get(key);
      if (!existing) continue;
      base.set(key, ctx.engine.goTemplate ? deepMergeOverride(existing, set) : { ...existing, ...set });
    }
  }
  return [...base.values()];
}
