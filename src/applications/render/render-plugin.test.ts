import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { testApplication } from '../../../test/support/test-application.js';
import type { ApplicationSourcePlugin } from '../../domain/index.js';
import type { PluginSettings } from '../../settings/index.js';
import { createApplicationRenderer } from './render-application.js';

let base: string;
let plugin: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'wavesync-plugin-test-'));
  await mkdir(path.join(base, 'app'), { recursive: true });
  await writeFile(path.join(base, 'app/lovely.yaml'), 'kind: marker\n');
  plugin = path.join(base, 'plugin.mjs');
  // A real plugin: init writes a file in the source folder, generate prints a ConfigMap holding what it saw.
  await writeFile(
    plugin,
    [
      '#!/usr/bin/env node',
      "import { existsSync, writeFileSync } from 'node:fs';",
      'const [step, ...args] = process.argv.slice(2);',
      "if (step === 'init') { writeFileSync('init-ran', 'yes'); process.exit(0); }",
      "if (step === 'hang') setInterval(() => {}, 1000);",
      'else { const seen = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(ARGOCD_|PARAM_)/.test(k)));',
      "  console.log(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'generated' }, data: { ...seen, args: [step, ...args].join(' '), init: String(existsSync('init-ran')) } })); }",
    ].join('\n'),
  );
  await chmod(plugin, 0o755);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const declared = (): PluginSettings[] => [
  {
    name: 'lovely',
    version: 'v1',
    init: { command: [plugin, 'init'], args: [] },
    generate: { command: [plugin], args: ['generate', '--flag'] },
    discover: { fileName: './lovely.yaml' },
  },
  { name: 'hangs', generate: { command: [plugin, 'hang'], args: [] } },
];

async function render(source: ApplicationSourcePlugin, timeoutMs = 30_000) {
  const renderer = createApplicationRenderer({
    baseDir: base,
    plugins: declared(),
    processEnv: { PATH: process.env.PATH, HOME: process.env.HOME, SECRET: 'not passed' },
    timeoutMs,
  });
  const app = testApplication({ source: { repoURL: '', path: 'app', plugin: source } });
  return renderer.renderApplication(app);
}

describe('Config Management Plugins (source.plugin)', () => {
  it('runs init then generate of the named plugin in a copy of the folder, with Argo CD’s environment', async () => {
    const rendered = await render({
      name: 'lovely-v1',
      env: [{ name: 'STAGE', value: 'prod' }],
      parameters: [
        { name: 'values-file', string: 'a.yaml' },
        { name: 'list', array: ['x', 'y'] },
        { name: 'm', map: { key: 'v' } },
      ],
    });

    expect(rendered.sourceType).toBe('Plugin');
    const [target] = rendered.targets;
    if (!target) throw new Error('the plugin generated nothing');
    expect(target.object.metadata.name).toBe('generated');
    expect((target.object as { data?: Record<string, string> }).data).toEqual({
      ARGOCD_APP_NAME: 'shop',
      ARGOCD_APP_NAMESPACE: 'shop',
      ARGOCD_APP_PROJECT_NAME: 'default',
      ARGOCD_APP_REVISION: '',
      ARGOCD_APP_REVISION_SHORT: '',
      ARGOCD_APP_REVISION_SHORT_8: '',
      ARGOCD_APP_SOURCE_PATH: 'app',
      ARGOCD_APP_SOURCE_REPO_URL: '',
      ARGOCD_APP_SOURCE_TARGET_REVISION: '',
      ARGOCD_ENV_STAGE: 'prod',
      ARGOCD_APP_PARAMETERS: JSON.stringify([
        { name: 'values-file', string: 'a.yaml' },
        { name: 'list', array: ['x', 'y'] },
        { name: 'm', map: { key: 'v' } },
      ]),
      PARAM_VALUES_FILE: 'a.yaml',
      PARAM_LIST_0: 'x',
      PARAM_LIST_1: 'y',
      PARAM_M_KEY: 'v',
      args: 'generate --flag',
      init: 'true',
    });
    await expect(readFile(path.join(base, 'app/init-ran'))).rejects.toThrow();
  });

  it('discovers the plugin when the Application names none (discover.fileName)', async () => {
    const rendered = await render({});
    expect(rendered.targets.map((t) => t.object.metadata.name)).toEqual(['generated']);
  });

  it('refuses a plugin that wavesync.yaml does not declare, by name', async () => {
    const error = await failure(render({ name: 'argocd-lovely-plugin' }));
    expect(error.message).toBe(
      'spec.source.plugin.name argocd-lovely-plugin: no such plugin in wavesync.yaml plugins: ' +
        "(declared: lovely-v1, hangs); declare it there as Argo CD's plugin.yaml declares it",
    );
  });

  it('stops a plugin at its time limit and says so', async () => {
    const error = await failure(render({ name: 'hangs' }, 300));
    expect(error.message).toMatch(/^plugin hangs generate: .* timed out after 300 ms/);
  });
});
