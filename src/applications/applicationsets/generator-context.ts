/**
 * What every ApplicationSet generator is given (the template engine, the clusters, the git checkouts, where it
 * is for messages) and the `values` every generator adds to its parameter sets.
 */
import type { Params } from './params.js';
import { renderString, type TemplateEngine } from './render-template.js';

/** A cluster as the cluster generator sees it (Argo CD: a Secret labelled argocd.argoproj.io/secret-type=cluster). */
export interface GeneratorCluster {
  name: string;
  server: string;
  project?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** A checkout of a repository at a revision (the git repository cache's `checkout`). */
export interface GitCheckouts {
  checkout(repoURL: string, revision: string): Promise<{ dir: string; sha: string }>;
}

export interface GeneratorContext {
  engine: TemplateEngine;
  clusters: readonly GeneratorCluster[];
  git: GitCheckouts | undefined;
  /** Where in the ApplicationSet this generator is, for messages: `spec.generators[0].matrix.generators[1]`. */
  where: string;
  /** Repositories read, with the commit each was read at (the revision the generated set came from). */
  revisions: Map<string, string>;
}

/** `values`: each rendered against the generator's own parameters, added as `values.<k>` / `values: {k: v}`. */
export function withValues(
  set: Params,
  values: Record<string, string> | undefined,
  ctx: GeneratorContext,
): Params {
  if (values === undefined || Object.keys(values).length === 0) return set;
  const rendered: Record<string, string> = {};
  for (const [k, v] of Object.entries(values))
    rendered[k] = renderString(v, set, ctx.engine, `${ctx.where} values.${k}`);
  if (ctx.engine.goTemplate) return { ...set, values: rendered };
  const out: Params = { ...set };
  for (const [k, v] of Object.entries(rendered)) out[`values.${k}`] = v;
  return out;
}
