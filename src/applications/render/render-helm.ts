/**
 * Render a Helm chart folder with `helm template`, with the options of `spec.source.helm` as Argo CD passes them
 * (util/helm/cmd.go template()): release name (default: the Application name), `--namespace` (`helm.namespace`, else
 * the destination's), `--kube-version`, value files (relative to the chart folder and kept inside its repository, or
 * `$ref/path` inside a multi-source ref source; missing ones skipped with `ignoreMissingValueFiles`),
 * `values`/`valuesObject` as one more values file, `parameters` as `--set`/`--set-string`, `fileParameters` as
 * `--set-file`, `--api-versions`, `--include-crds` unless `skipCrds` (then `--skip-crds`), `--skip-tests`,
 * `--skip-schema-validation`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ApplicationSourceHelm } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { runTool } from './run-tool.js';

export interface HelmTemplateInput {
  chartDir: string;
  /** Value files must stay inside this folder (the repository checkout, or the local root). */
  root: string;
  releaseName: string;
  /** Destination namespace ('' = none). */
  namespace: string;
  helm: ApplicationSourceHelm | undefined;
  /** Multi-source: the root folder of each ref source, by ref name (`$values/…` in valueFiles). */
  refs?: ReadonlyMap<string, string>;
  timeoutMs: number;
  /** The helm binary (default `helm` on PATH). */
  binary?: string;
}

export const HELM_INSTALL_HINT =
  'install Helm 3 (https://helm.sh/docs/intro/install/) to render Helm sources';

/**
 * The rendered YAML.
 * @throws BotError('render_failed') naming a value file outside the repository or missing, `helm` when it is not
 *   on PATH, or helm's own message.
 */
export async function renderHelm(input: HelmTemplateInput): Promise<string> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-helm-'));
  try {
    const helm = input.helm ?? {};
    const namespace = helm.namespace || input.namespace;
    const args = [
      'template',
      input.releaseName,
      input.chartDir,
      ...(namespace ? ['--namespace', namespace] : []),
    ];
    if (helm.kubeVersion) args.push('--kube-version', helm.kubeVersion);
    args.push(...valueFileArgs(input));
    const inline = inlineValues(input.helm);
    if (inline !== undefined) {
      const file = path.join(scratch, 'values.yaml');
      await writeFile(file, inline);
      args.push('--values', file);
    }
    for (const p of input.helm?.parameters ?? []) {
      args.push(p.forceString ? '--set-string' : '--set', `${p.name}=${escapeSetValue(p.value)}`);
    }
    for (const p of helm.fileParameters ?? []) {
      args.push('--set-file', `${p.name}=${insideRoot(input, p.path, 'helm file parameter').resolved}`);
    }
    for (const api of helm.apiVersions ?? []) args.push('--api-versions', api);
    args.push(helm.skipCrds ? '--skip-crds' : '--include-crds');
    if (helm.skipTests) args.push('--skip-tests');
    if (helm.skipSchemaValidation) args.push('--skip-schema-validation');
    return await runTool(input.binary ?? 'helm', args, {
      cwd: input.chartDir,
      timeoutMs: input.timeoutMs,
      installHint: HELM_INSTALL_HINT,
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function valueFileArgs(input: HelmTemplateInput): string[] {
  return (input.helm?.valueFiles ?? []).flatMap((file) => {
    if (/^https?:\/\//.test(file)) return ['--values', file];
    const { resolved, shown } = insideRoot(input, file, 'helm value file');
    if (!existsSync(resolved)) {
      if (input.helm?.ignoreMissingValueFiles) return [];
      throw new BotError(
        'render_failed',
        `helm value file ${file} not found in ${shown} (set helm.ignoreMissingValueFiles: true to skip missing ones)`,
      );
    }
    return ['--values', resolved];
  });
}

/**
 * `file` resolved: relative to the chart folder and inside its root, or `$ref/path` inside the ref source's root.
 * @throws BotError('render_failed') for an unknown ref and for a path that leaves its repository.
 */
function insideRoot(
  input: HelmTemplateInput,
  file: string,
  what: string,
): { resolved: string; shown: string } {
  const ref = /^\$([^/]+)\/(.*)$/.exec(file);
  let root = input.root;
  let resolved = path.resolve(input.chartDir, file);
  let shown = input.chartDir;
  if (ref) {
    const refRoot = input.refs?.get(ref[1]!);
    if (refRoot === undefined) {
      const known = [...(input.refs?.keys() ?? [])].map((r) => `$${r}`);
      throw new BotError(
        'render_failed',
        `${what} ${file}: no source has ref: ${ref[1]} (${known.length === 0 ? 'no source has a ref' : `known: ${known.join(', ')}`})`,
      );
    }
    root = refRoot;
    resolved = path.resolve(refRoot, ref[2]!);
    shown = `ref source $${ref[1]}`;
  }
  const relative = path.relative(root, resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new BotError('render_failed', `${what} ${file} is outside the repository`);
  }
  return { resolved, shown };
}

/** `valuesObject` wins over `values` (Argo CD ApplicationSourceHelm.ValuesYAML). */
function inlineValues(helm: ApplicationSourceHelm | undefined): string | undefined {
  if (helm?.valuesObject !== undefined) return stringify(helm.valuesObject);
  return helm?.values === undefined || helm.values.trim() === '' ? undefined : helm.values;
}

/** Argo CD cleanSetParameters: escape unescaped commas unless the value is a `{a,b}` list. */
function escapeSetValue(value: string): string {
  if (value.startsWith('{') && value.endsWith('}')) return value;
  return value.replace(/(?<!\\),/g, '\\,');
}
