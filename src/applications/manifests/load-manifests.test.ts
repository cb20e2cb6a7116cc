import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedFixturesDir as fixture } from '../../../test/support/shared-fixtures.js';
import { ManifestError } from '../../domain/index.js';
import { loadManifests } from './load-manifests.js';

const HAS_KUSTOMIZE = ['kustomize', 'kubectl'].some((cmd) => spawnSync(cmd, ['version']).error === undefined);

function cm(name: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
}

describe('src/applications/manifests/load-manifests', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wavesync-load-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads *.yaml, *.yml and *.json recursively in path order, skipping other files and dot-directories', async () => {
    await mkdir(path.join(dir, 'b/nested'), { recursive: true });
    await mkdir(path.join(dir, '.git'));
    await writeFile(path.join(dir, 'z.yaml'), cm('z'));
    await writeFile(path.join(dir, 'a.yml'), cm('a'));
    await writeFile(path.join(dir, 'b/nested/n.json'), JSON.stringify(JSON.parse(jsonOf('n'))));
    await writeFile(path.join(dir, 'b/m.YAML'), cm('m'));
    await writeFile(path.join(dir, 'README.md'), '# not a manifest: [');
    await writeFile(path.join(dir, '.git/config.yaml'), 'broken: [');

    const { objects } = await loadManifests(dir);

    expect(objects.map((o) => [path.relative(dir, o.source.file), o.object.metadata.name])).toEqual([
      ['a.yml', 'a'],
      ['b/m.YAML', 'm'],
      ['b/nested/n.json', 'n'],
      ['z.yaml', 'z'],
    ]);
  });

  it('reads only the top directory when recurse is false', async () => {
    await mkdir(path.join(dir, 'sub'));
    await writeFile(path.join(dir, 'top.yaml'), cm('top'));
    await writeFile(path.join(dir, 'sub/deep.yaml'), cm('deep'));

    const { objects } = await loadManifests(dir, { recurse: false });

    expect(objects.map((o) => o.object.metadata.name)).toEqual(['top']);
  });

  it('reads a single file', async () => {
    await writeFile(path.join(dir, 'one.yaml'), `${cm('x')}---\n${cm('z')}`);

    const { objects } = await loadManifests(path.join(dir, 'one.yaml'));

    expect(objects.map((o) => `${o.object.metadata.name}@${o.source.line}`)).toEqual(['x@1', 'z@6']);
  });

  it('rejects an unreadable path', async () => {
    const missing = path.join(dir, 'missing');

    await expect(loadManifests(missing)).rejects.toThrow(ManifestError);
    await expect(loadManifests(missing)).rejects.toThrow(`${missing}: no such file or directory`);
  });

  it('rejects the same resource in two files, naming both', async () => {
    await writeFile(path.join(dir, 'a.yaml'), cm('dup'));
    await writeFile(path.join(dir, 'b.yaml'), `${cm('other')}---\n${cm('dup')}`);

    await expect(loadManifests(dir)).rejects.toThrow(
      `${path.join(dir, 'b.yaml')}:6: duplicate resource ConfigMap/dup, also defined at ${path.join(dir, 'a.yaml')}:1`,
    );
  });

  it('does not treat the same name in two namespaces, kinds or groups as a duplicate', async () => {
    const text = [
      cm('x'),
      `${cm('x').replace('name: x', 'name: x\n  namespace: other')}`,
      'apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n',
      'apiVersion: example.com/v1\nkind: ConfigMap\nmetadata: {name: x}\n',
    ].join('---\n');
    await writeFile(path.join(dir, 'm.yaml'), text);

    expect((await loadManifests(dir)).objects).toHaveLength(4);
  });

  it('names the file and line of a syntax error', async () => {
    await writeFile(path.join(dir, 'ok.yaml'), cm('ok'));
    await writeFile(path.join(dir, 'bad.yaml'), `${cm('fine')}---\nmetadata:\n  name: [x\n`);

    await expect(loadManifests(dir)).rejects.toThrow(
      new RegExp(`^${escapeRegExp(path.join(dir, 'bad.yaml'))}:\\d+: YAML syntax error`),
    );
  });

  it('refuses a Helm chart folder with a clear error instead of parsing its templates', async () => {
    const chart = fixture('argocd-example-apps/helm-guestbook');

    await expect(loadManifests(chart)).rejects.toThrow(`${chart}: is a Helm chart (Chart.yaml)`);
  });

  it('renders a Kustomize directory with a missing renderer as a clear error naming the binaries', async () => {
    await writeFile(path.join(dir, 'kustomization.yaml'), 'resources: [cm.yaml]\n');
    await writeFile(path.join(dir, 'cm.yaml'), cm('k'));
    const renderers = [{ command: 'wavesync-no-such-kustomize', args: ['build'] }];
    const both = [...renderers, { command: 'wavesync-no-such-kubectl', args: ['kustomize'] }];

    await expect(loadManifests(dir, { kustomize: { renderers } })).rejects.toThrow(
      `${dir}: is a Kustomize source but \`wavesync-no-such-kustomize\` is not on PATH`,
    );
    await expect(loadManifests(dir, { kustomize: { renderers: both } })).rejects.toThrow(
      'neither `wavesync-no-such-kustomize` nor `wavesync-no-such-kubectl` is on PATH; install kustomize or kubectl',
    );
  });

  it('reports a failing renderer with its stderr', async () => {
    await writeFile(path.join(dir, 'kustomization.yaml'), 'resources: [cm.yaml]\n');
    const renderers = [
      {
        command: process.execPath,
        args: ['-e', 'console.error("boom: bad kustomization"); process.exit(3)'],
      },
    ];

    await expect(loadManifests(dir, { kustomize: { renderers } })).rejects.toThrow(
      /exited with 3: boom: bad kustomization$/,
    );
  });

  it('never parses a kustomization file as a manifest, even when named directly', async () => {
    await writeFile(path.join(dir, 'kustomization.yaml'), 'resources: [cm.yaml]\n');
    await writeFile(path.join(dir, 'cm.yaml'), cm('k'));
    const renderers = [
      { command: process.execPath, args: ['-e', `process.stdout.write(${JSON.stringify(cm('rendered'))})`] },
    ];

    const viaDir = await loadManifests(dir, { kustomize: { renderers } });
    const viaFile = await loadManifests(path.join(dir, 'kustomization.yaml'), { kustomize: { renderers } });

    expect(viaDir.objects.map((o) => [o.object.metadata.name, o.source.file])).toEqual([['rendered', dir]]);
    expect(viaFile.objects.map((o) => o.object.metadata.name)).toEqual(['rendered']);
  });

  it('renders the pre-post-sync fixture (Kustomize overlay) with the real binary, or says which one is missing', async () => {
    const loading = loadManifests(fixture('argocd-example-apps/pre-post-sync'));

    if (!HAS_KUSTOMIZE) {
      await expect(loading).rejects.toThrow('neither `kustomize` nor `kubectl` is on PATH');
      return;
    }
    const names = (await loading).objects.map((o) => `${o.object.kind}/${o.object.metadata.name}`);
    expect(names.sort()).toEqual([
      'Deployment/pre-post-sync-kustomize-guestbook-ui',
      'Job/pre-post-sync-after',
      'Job/pre-post-sync-before',
      'Service/pre-post-sync-kustomize-guestbook-ui',
    ]);
  });
});

function jsonOf(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
