/**
 * A stand-in for the `helm` binary (this machine has none): an executable `helm` script for PATH that records its
 * argv (one JSON line per run in `argv.log` beside it) and, for `helm template RELEASE CHART …`, does what helm
 * does with no templating: prints every file of the chart's `templates/` folder (and, without `--skip-crds`, of
 * `crds/` first, only with `--include-crds`), in name order. It is not kinder than helm: a chart folder without
 * Chart.yaml, a values file that does not exist, or a flag `helm template` does not have fails with helm's message.
 */
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SCRIPT = String.raw`#!/usr/bin/env node
const { appendFileSync, existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
appendFileSync(path.join(__dirname, 'argv.log'), JSON.stringify(args) + '\n');
const fail = (m) => { process.stderr.write('Error: ' + m + '\n'); process.exit(1); };
if (args[0] !== 'template') fail('unknown command "' + args[0] + '" for "helm"');
const withValue = ['--namespace', '--values', '--set', '--set-string', '--set-file', '--kube-version', '--api-versions'];
const flags = ['--include-crds', '--skip-crds', '--skip-tests', '--skip-schema-validation'];
const positional = [];
for (let i = 1; i < args.length; i++) {
  const a = args[i];
  if (withValue.includes(a)) {
    const v = args[++i];
    if (v === undefined) fail('flag needs an argument: ' + a);
    if (a === '--values' && !/^https?:/.test(v) && !existsSync(v)) fail('open ' + v + ': no such file or directory');
    if (a === '--set-file' && !existsSync(v.slice(v.indexOf('=') + 1))) fail('open ' + v + ': no such file or directory');
  } else if (flags.includes(a)) {
  } else if (a.startsWith('-')) fail('unknown flag: ' + a);
  else positional.push(a);
}
const chart = positional[1];
if (!chart || !existsSync(path.join(chart, 'Chart.yaml'))) fail('Chart.yaml file is missing');
const out = [];
const folders = (args.includes('--include-crds') && !args.includes('--skip-crds') ? ['crds'] : []).concat(['templates']);
for (const folder of folders) {
  const dir = path.join(chart, folder);
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).sort()) out.push('---\n# Source: ' + folder + '/' + f + '\n' + readFileSync(path.join(dir, f), 'utf8'));
}
process.stdout.write(out.join('\n'));
`;

export interface StandInHelm {
  /** Folder holding `helm` (put it first on PATH). */
  dir: string;
  /** The argv of every run so far, in order. */
  runs(): Promise<string[][]>;
}

export async function createStandInHelm(): Promise<StandInHelm> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-helm-bin-'));
  await writeFile(path.join(dir, 'helm'), SCRIPT);
  await writeFile(path.join(dir, 'package.json'), '{"type":"commonjs"}');
  await chmod(path.join(dir, 'helm'), 0o755);
  await writeFile(path.join(dir, 'argv.log'), '');
  return {
    dir,
    async runs() {
      const text = await readFile(path.join(dir, 'argv.log'), 'utf8');
      return text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as string[]);
    },
  };
}
