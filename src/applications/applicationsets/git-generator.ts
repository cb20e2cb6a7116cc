/**
 * The git generator (Argo CD `applicationset/generators/git.go`): directories and files of a repository's checkout
 * (over the git repository cache), as parameter sets in Argo CD's order, with `pathParamPrefix` and `values`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Generator } from './applicationset-schema.js';
import { type GeneratorContext, withValues } from './generator-context.js';
import { normalizeName } from './go-template/argocd-names.js';
import { isMap } from './go-template/go-value.js';
import { flattenParams, goPathMatch, type Params, pathspecMatch } from './params.js';
import { TemplateError } from './template-error.js';

/** Files the git cache writes into a checkout, not part of the repository. */
const CHECKOUT_FILES = new Set(['.git', '.wavesync-ready']);

async function checkoutFor(gen: NonNullable<Generator['git']>, ctx: GeneratorContext) {
  if (!ctx.git) {
    throw new TemplateError(`${ctx.where}.git: reading ${gen.repoURL} needs the git repository cache`);
  }
  const checkout = await ctx.git.checkout(gen.repoURL, gen.revision ?? 'HEAD');
  ctx.revisions.set(gen.repoURL, checkout.sha);
  return checkout;
}

/** Every directory (`dirs`) or file of a checkout, relative with `/`, in filepath.WalkDir (lexical) order. */
async function walk(root: string, want: 'dirs' | 'files'): Promise<string[]> {
  const out: string[] = [];
  const visit = async (rel: string) => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (rel === '' && CHECKOUT_FILES.has(entry.name)) continue;
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        // Directory discovery skips hidden directories and what is under them (Argo CD's repo server does).
        if (want === 'dirs' && entry.name.startsWith('.')) continue;
        if (want === 'dirs') out.push(child);
        await visit(child);
      } else if (want === 'files' && entry.isFile()) out.push(child);
    }
  };
  await visit('');
  return out;
}

function pathParams(
  dir: string,
  file: string | undefined,
  goTemplate: boolean,
  prefix: string | undefined,
): Params {
  const basename = path.posix.basename(dir);
  const segments = dir.split('/').filter((s) => s !== '');
  if (goTemplate) {
    const p: Params = { path: dir, basename, basenameNormalized: normalizeName(basename) };
    if (file !== undefined) {
      p.filename = file;
      p.filenameNormalized = normalizeName(file);
    }
    p.segments = segments;
    return prefix ? { [prefix]: { path: p } } : { path: p };
  }
  const key = prefix ? `${prefix}.path` : 'path';
  const p: Params = {
    [key]: dir,
    [`${key}.basename`]: basename,
    [`${key}.basenameNormalized`]: normalizeName(basename),
  };
  if (file !== undefined) {
    p[`${key}.filename`] = file;
    p[`${key}.filenameNormalized`] = normalizeName(file);
  }
  segments.forEach((s, i) => {
    p[`${key}[${i}]`] = s;
  });
  return p;
}

export async function gitParams(
  gen: NonNullable<Generator['git']>,
  ctx: GeneratorContext,
): Promise<Params[]> {
  const checkout = await checkoutFor(gen, ctx);
  const goTemplate = ctx.engine.goTemplate;
  if (gen.directories) {
    const include = gen.directories.filter((d) => !d.exclude);
    const exclude = gen.directories.filter((d) => d.exclude);
    const dirs = (await walk(checkout.dir, 'dirs')).filter(
      (d) => include.some((p) => goPathMatch(p.path, d)) && !exclude.some((p) => goPathMatch(p.path, d)),
    );
    return dirs.map((d) =>
      withValues(pathParams(d, undefined, goTemplate, gen.pathParamPrefix), gen.values, ctx),
    );
  }
  const items = gen.files ?? [];
  const all = await walk(checkout.dir, 'files');
  const files = all
    .filter(
      (f) =>
        items.some((p) => !p.exclude && pathspecMatch(p.path, f)) &&
        !items.some((p) => p.exclude && pathspecMatch(p.path, f)),
    )
    .sort();
  const sets: Params[] = [];
  for (const file of files) {
    const text = await readFile(path.join(checkout.dir, file), 'utf8');
    let content: unknown;
    try {
      content = text.trim() === '' ? null : parseYaml(text);
    } catch (error) {
      throw new TemplateError(
        `${ctx.where}.git: ${gen.repoURL} ${file}: not YAML or JSON: ${(error as Error).message}`,
      );
    }
    const objects = content === null ? [{}] : Array.isArray(content) ? content : [content];
    objects.forEach((object, i) => {
      if (!isMap(object)) {
        throw new TemplateError(
          `${ctx.where}.git: ${gen.repoURL} ${file}${Array.isArray(content) ? ` item ${i}` : ''}: must be an object (or a list of objects)`,
        );
      }
      const dir = path.posix.dirname(file);
      const paths = pathParams(dir, path.posix.basename(file), goTemplate, gen.pathParamPrefix);
      const base = goTemplate ? { ...object, ...paths } : { ...flattenParams(object), ...paths };
      sets.push(withValues(base, gen.values, ctx));
    });
  }
  return sets;
}
