/**
 * Render a Helm chart folder with `helm template`, with the options of `spec.source.helm` as Argo CD passes them
 * (util/helm/cmd.go template()): release name (default: the Application name), `--namespace` of the destination,
 * value files (relative to the chart folder, kept inside the repository), `values`/`valuesObject` as one more values
 * file, `parameters` as `--set`/`--set-string`, and `--include-crds`.
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
  timeoutMs: number;
  /** The helm binary (default `helm` on PATH). */
  binary?: string;
}

const INSTALL_HINT = 'install Helm 3 (https://helm.sh/docs/intro/install/) to render Helm sources';

/**
 * The rendered YAML.
 * @throws BotError('render_failed') naming a value file outside the repository or missing, `helm` when it is not
 *   on PATH, or helm's own message.
 */
export async function renderHelm(input: HelmTemplateInput): Promise<string> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-helm-'));
  try {
    const args = [
      'template',
      input.releaseName,
      input.chartDir,
      ...(input.namespace ? ['--namespace', input.namespace] : []),
    ];
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
    args.push('--include-crds');
    return await runTool(input.binary ?? 'helm', args, {
      cwd: input.chartDir,
      timeoutMs: input.timeoutMs,
      installHint: INSTALL_HINT,
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function valueFileArgs(input: HelmTemplateInput): string[] {
  return (input.helm?.valueFiles ?? []).flatMap((file) => {
    if (/^https?:\/\//.test(file)) return ['--values', file];
    const resolved = path.resolve(input.chartDir, file);
    const relative = path.relative(input.root, resolved);
    if (relative.startsWith('..') || path.isAbsolute(relative)) {
      throw new BotError('render_failed', `helm value file ${file} is outside the repository`);
    }
    if (!existsSync(resolved))
      throw new BotError('render_failed', `helm value file ${file} not found in ${input.chartDir}`);
    return ['--values', resolved];
  });
}

/** `valuesObject` wins over `values` (Argo CD ApplicationSourceHelm.ValuesYAML). */
function inlineValues(helm: ApplicationSourceHelm | undefined): string | undefined {
  if (helm?.valuesObject !== undefined) return stringify(helm.valuesObject);
  return helm?.values === undefined || helm.values.trim() === '' ? undefined : helm.values;
}

/** Argo CD cleanSetParameters: escape unescaped commas unless the value is a `{a,b}` list. */
export function escapeSetValue(value: string): string {
  if (value.startsWith('{') && value.endsWith('}')) return value;
  return value.replace(/(?<!\\),/g, '\\,');
}
