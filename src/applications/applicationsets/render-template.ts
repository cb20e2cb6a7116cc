/**
 * Rendering an ApplicationSet's Application template with one parameter set (Argo CD `applicationset/utils/utils.go`
 * RenderTemplateParams and `controllers/template/template.go`): every string, and every map key, is rendered with the
 * ApplicationSet's engine (fasttemplate, or Go text/template with `goTemplateOptions`); an empty parameter set leaves
 * the template as written. Then the finalizer rule (`resources-finalizer.argocd.argoproj.io` unless
 * `preserveResourcesOnDeletion` or finalizers given), then `templatePatch` (rendered the same way, applied as a merge
 * patch: maps merged, lists replaced, null removes; `spec.project` kept), then `metadata.namespace` = the
 * ApplicationSet's namespace.
 */
import { parse as parseYaml } from 'yaml';
import { renderFastTemplate } from './fast-template.js';
import {
  GoTemplateError,
  type GoTemplateOptions,
  renderGoTemplate,
  TemplateParseError,
} from './go-template/go-template.js';
import { isMap } from './go-template/go-value.js';
import type { Params } from './params.js';
import { TemplateError } from './template-error.js';

const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

export interface TemplateEngine {
  goTemplate: boolean;
  options: GoTemplateOptions;
}

/** Render one string; errors name the parameter or function as Go/fasttemplate do. */
export function renderString(source: string, params: Params, engine: TemplateEngine, where: string): string {
  try {
    return engine.goTemplate
      ? renderGoTemplate(source, params, engine.options)
      : renderFastTemplate(source, params);
  } catch (error) {
    if (
      error instanceof GoTemplateError ||
      error instanceof TemplateParseError ||
      error instanceof TemplateError
    ) {
      throw new TemplateError(
        `${where}: failed to execute go template ${JSON.stringify(source)}: ${error.message}`,
      );
    }
    throw error;
  }
}

/** Every string and map key of `value` rendered; `where` is the key path for messages. */
export function renderDeep(value: unknown, params: Params, engine: TemplateEngine, where: string): unknown {
  if (typeof value === 'string') return renderString(value, params, engine, where);
  if (Array.isArray(value)) return value.map((v, i) => renderDeep(v, params, engine, `${where}[${i}]`));
  if (isMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = renderString(k, params, engine, `${where}.${k}`);
      out[key] = renderDeep(v, params, engine, `${where}.${k}`);
    }
    return out;
  }
  return value;
}

export interface RenderInput {
  template: Record<string, unknown>;
  params: Params;
  engine: TemplateEngine;
  preserveResourcesOnDeletion: boolean;
  templatePatch: string | undefined;
  namespace: string;
}

/** The rendered Application object (apiVersion/kind set), before validation as an Application. */
export function renderApplication(input: RenderInput): Record<string, unknown> {
  const { params, engine } = input;
  let app: Record<string, unknown>;
  if (Object.keys(params).length === 0) app = structuredClone(input.template);
  else {
    app = renderDeep(input.template, params, engine, 'spec.template') as Record<string, unknown>;
    const metadata = (app.metadata ?? {}) as Record<string, unknown>;
    const finalizers = metadata.finalizers as unknown[] | undefined;
    if (!input.preserveResourcesOnDeletion && (finalizers === undefined || finalizers.length === 0)) {
      metadata.finalizers = [RESOURCES_FINALIZER];
    }
    app.metadata = metadata;
  }
  if (input.templatePatch !== undefined) app = applyTemplatePatch(app, input.templatePatch, params, engine);
  const metadata = (app.metadata ?? {}) as Record<string, unknown>;
  metadata.namespace = input.namespace;
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata, spec: app.spec ?? {} };
}

function applyTemplatePatch(
  app: Record<string, unknown>,
  patchSource: string,
  params: Params,
  engine: TemplateEngine,
): Record<string, unknown> {
  const rendered = renderString(patchSource, params, engine, 'spec.templatePatch');
  let patch: unknown;
  try {
    patch = parseYaml(rendered);
  } catch (error) {
    throw new TemplateError(
      `spec.templatePatch: the rendered patch is not YAML: ${(error as Error).message}`,
    );
  }
  if (patch === null || patch === undefined) return app;
  if (!isMap(patch))
    throw new TemplateError('spec.templatePatch: the rendered patch is not an Application object');
  const project = (app.spec as Record<string, unknown> | undefined)?.project;
  const patched = mergePatch(app, patch) as Record<string, unknown>;
  if (isMap(patched.spec)) {
    if (project === undefined) delete patched.spec.project;
    else patched.spec.project = project;
  }
  return patched;
}

/** Maps merged recursively, null deletes a key, anything else (lists included) replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
