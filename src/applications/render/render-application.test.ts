import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import type { Application, ApplicationSource, BotError } from '../../domain/index.js';
import { AbortedError } from '../../engine/index.js';
import { createGitRepositoryCache } from '../git/git-repository-cache.js';
import { createLocalFolderKeys } from './local-folder-keys.js';
import { createApplicationRenderer, type RenderedApplication } from './render-application.js';
import { createRenderCache, renderKeyOf } from './render-cache.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../../examples');
const onPath = (binary: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const HAS_KUSTOMIZE = onPath('kustomize') || onPath('kubectl');
const HAS_HELM = onPath('helm');

function app(name: string, source: Partial<ApplicationSource>, namespace = name): Application {
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '', ...source },
    destination: { server: 'https://kubernetes.default.svc', namespace },
    finalizers: [],
    labels: {},
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
    origin: `applications/${name}.yaml:1`,
  };
}

const names = (targets: { object: { kind: string; metadata: { name?: string; generateName?: string } } }[]) =>
  targets.map((t) => `${t.object.kind}/${t.object.metadata.name ?? t.object.metadata.generateName}`);

/** A render cache counting its hits (the renderer sees the real cache). */
function countingCache() {
  const cache = createRenderCache<RenderedApplication>();
  const counts = { hits: 0 };
  return {
    counts,
    renderCache: {
      get: async (key: string) => {
        const found = await cache.get(key);
        if (found) counts.hits++;
        return found;
      },
      set: (key: string, value: RenderedApplication) => cache.set(key, value),
      get size() {
        return cache.size;
      },
    },
  };
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'wavesync-render-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('renderApplication: local directories', () => {
  const renderer = createApplicationRenderer({ baseDir: EXAMPLES });

  it('renders a plain folder with a 12-hex content revision that changes with the content', async () => {
    const rendered = await renderer.renderApplication(app('guestbook', { path: 'manifests/guestbook' }));

    expect(rendered.sourceType).toBe('Directory');
    expect(names(rendered.targets)).toEqual(['Deployment/guestbook-ui', 'Service/guestbook-ui']);
    expect(rendered.targets[0]?.source).toEqual({
      file: path.join(EXAMPLES, 'manifests/guestbook/guestbook-ui-deployment.yaml'),
      line: 1,
    });
    expect(rendered.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(
      (await renderer.renderApplication(app('guestbook', { path: 'manifests/guestbook' }))).revision,
    ).toBe(rendered.revision);

    const copy = path.join(scratch, 'guestbook-copy');
    await cp(path.join(EXAMPLES, 'manifests/guestbook'), copy, { recursive: true });
    await writeFile(
      path.join(copy, 'extra.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: extra }\n',
    );
    const changed = await createApplicationRenderer({ baseDir: scratch }).renderApplication(
      app('guestbook', { path: 'guestbook-copy' }),
    );
    expect(changed.revision).not.toBe(rendered.revision);
  });

  it('honours directory.recurse, include and exclude with Argo CD glob semantics', async () => {
    const dir = path.join(scratch, 'tree');
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name} }\n`;
    await mkdir(path.join(dir, 'sub/deeper'), { recursive: true });
    await writeFile(path.join(dir, 'a.yaml'), cm('a'));
    await writeFile(path.join(dir, 'b.yml'), cm('b'));
    await writeFile(
      path.join(dir, 'c.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }),
    );
    await writeFile(path.join(dir, 'notes.txt'), 'not a manifest');
    await writeFile(path.join(dir, 'sub/d.yaml'), cm('d'));
    await writeFile(path.join(dir, 'sub/deeper/e-prod.yaml'), cm('e'));
    const render = (directory: ApplicationSource['directory']) =>
      createApplicationRenderer({ baseDir: scratch }).renderApplication(
        app('tree', { path: 'tree', directory }),
      );

    expect(names((await render(undefined)).targets)).toEqual(['ConfigMap/a', 'ConfigMap/b', 'ConfigMap/c']);
    expect(names((await render({ recurse: true })).targets)).toEqual([
      'ConfigMap/a',
      'ConfigMap/b',
      'ConfigMap/c',
      'ConfigMap/d',
      'ConfigMap/e',
    ]);
    expect(names((await render({ recurse: true, include: '{a.yaml,sub/*}' })).targets)).toEqual([
      'ConfigMap/a',
      'ConfigMap/d',
      'ConfigMap/e',
    ]);
    expect(names((await render({ recurse: true, exclude: '*-prod.yaml' })).targets)).toEqual([
      'ConfigMap/a',
      'ConfigMap/b',
      'ConfigMap/c',
      'ConfigMap/d',
    ]);
    const bad = await render({ include: '{a.yaml' });
    expect(bad.targets).toEqual([]);
    expect(bad.warnings.map((w) => w.message)).toEqual([
      'directory.include "{a.yaml" is not a valid glob; it matches nothing (as in Argo CD)',
    ]);
  });

  it('reports a missing folder and several explicit source types', async () => {
    const missing = await failure<BotError>(renderer.renderApplication(app('x', { path: 'manifests/nope' })));
    expect(missing.code).toBe('render_failed');
    expect(missing.message).toBe(
      `source path manifests/nope of x (${path.join(EXAMPLES, 'manifests/nope')}) does not exist or is not a folder`,
    );

    const both = await failure<BotError>(
      renderer.renderApplication(app('x', { path: 'manifests/guestbook', kustomize: {}, directory: {} })),
    );
    expect(both.message).toBe('multiple application sources defined: Kustomize, Directory');
  });

  it('names the file and line of an invalid manifest', async () => {
    const dir = path.join(scratch, 'broken');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'x.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ok }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: { tier: 3 }\n',
    );

    const error = await failure<BotError>(
      createApplicationRenderer({ baseDir: scratch }).renderApplication(app('broken', { path: 'broken' })),
    );

    expect(error.code).toBe('invalid_manifest');
    expect(error.message).toBe(
      `${path.join(dir, 'x.yaml')}:8: metadata.labels value of tier must be a string, got 3 (quote it: "3")`,
    );
  });
});

describe('renderApplication: local folders with a render cache', () => {
  const cm = (name: string, value: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name} }\ndata: { v: "${value}" }\n`;
  const data = (rendered: RenderedApplication) => rendered.targets.map((t) => t.object.data);

  it('renders an unchanged folder once; an edit, a new file or another option renders again; same content hits', async () => {
    const dir = path.join(scratch, 'cached-local');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'a.yaml'), cm('a', '1'));
    const { counts, renderCache } = countingCache();
    const renderer = createApplicationRenderer({
      baseDir: scratch,
      renderCache,
      localFolders: createLocalFolderKeys(),
    });
    const local = app('cached-local', { path: 'cached-local' });

    const first = await renderer.renderApplication(local);
    (first.targets[0]!.object.data as Record<string, string>).v = 'changed by a caller';
    const second = await renderer.renderApplication(local);
    expect(counts.hits).toBe(1);
    expect(data(second)).toEqual([{ v: '1' }]);
    expect(second.revision).toBe(first.revision);

    await writeFile(path.join(dir, 'a.yaml'), cm('a', '2'));
    const edited = await renderer.renderApplication(local);
    expect(counts.hits).toBe(1);
    expect(data(edited)).toEqual([{ v: '2' }]);
    expect(edited.revision).not.toBe(first.revision);

    // The first content again (another mtime): the render of that content, from the cache.
    await writeFile(path.join(dir, 'a.yaml'), cm('a', '1'));
    const back = await renderer.renderApplication(local);
    expect(counts.hits).toBe(2);
    expect([data(back), back.revision]).toEqual([[{ v: '1' }], first.revision]);

    await writeFile(path.join(dir, 'b.yaml'), cm('b', '1'));
    expect(names((await renderer.renderApplication(local)).targets)).toEqual(['ConfigMap/a', 'ConfigMap/b']);
    const only = await renderer.renderApplication(
      app('cached-local', { path: 'cached-local', directory: { include: 'b.yaml' } }),
    );
    expect(names(only.targets)).toEqual(['ConfigMap/b']);
    expect(counts.hits).toBe(2);

    // A revision asked for a local folder is ignored with a warning, from the cache too.
    const pinned = await renderer.renderApplication(local, { revision: 'v9' });
    expect(counts.hits).toBe(3);
    expect(pinned.warnings.map((w) => w.message)).toEqual([
      'revision v9 ignored: cached-local has a local source',
    ]);
    expect((await renderer.renderApplication(local)).warnings).toEqual([]);
  });

  it('caches nothing without local folder keys, and no local folder another tool renders', async () => {
    const dir = path.join(scratch, 'uncached-local');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'a.yaml'), cm('a', '1'));
    const withoutKeys = countingCache();
    const renderer = createApplicationRenderer({ baseDir: scratch, renderCache: withoutKeys.renderCache });
    await renderer.renderApplication(app('uncached-local', { path: 'uncached-local' }));
    await renderer.renderApplication(app('uncached-local', { path: 'uncached-local' }));
    expect([withoutKeys.counts.hits, withoutKeys.renderCache.size]).toEqual([0, 0]);

    // A plugin reads what it likes (here a file outside the selection): a local plugin source is never cached.
    const plugin = countingCache();
    const pluginRenderer = createApplicationRenderer({
      baseDir: scratch,
      renderCache: plugin.renderCache,
      localFolders: createLocalFolderKeys(),
      plugins: [{ name: 'cat', generate: { command: ['sh', '-c', 'cat value.txt'], args: [] } }],
      processEnv: { PATH: process.env.PATH },
    });
    await writeFile(path.join(dir, 'value.txt'), cm('p', '1'));
    const pluginApp = app('uncached-local', { path: 'uncached-local', plugin: { name: 'cat' } });
    expect(data(await pluginRenderer.renderApplication(pluginApp))).toEqual([{ v: '1' }]);
    await writeFile(path.join(dir, 'value.txt'), cm('p', '2'));
    expect(data(await pluginRenderer.renderApplication(pluginApp))).toEqual([{ v: '2' }]);
    expect([plugin.counts.hits, plugin.renderCache.size]).toEqual([0, 0]);
  });
});

describe('renderApplication: per-Application limits and cancel', () => {
  const configMaps = (from: number, count: number) =>
    Array.from(
      { length: count },
      (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: cm-${from + i} }\ndata: { i: "${i}" }\n`,
    ).join('---\n');
  let dir: string;
  beforeAll(async () => {
    dir = path.join(scratch, 'many');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'a.yaml'), configMaps(0, 30));
    await writeFile(
      path.join(dir, 'b.yaml'),
      `apiVersion: v1\nkind: List\nitems:\n${'  - { apiVersion: v1, kind: Secret, metadata: { name: s } }\n'.replace('s }', 's-0 }')}`,
    );
  });

  it('renders an Application at its limits, and refuses one object more naming the count, the limit and the setting', async () => {
    const at = createApplicationRenderer({
      baseDir: scratch,
      limits: { maxObjects: 31, maxManifestBytes: 1e6 },
    });
    const over = createApplicationRenderer({
      baseDir: scratch,
      limits: { maxObjects: 30, maxManifestBytes: 1e6 },
    });

    expect((await at.renderApplication(app('many', { path: 'many' }))).targets).toHaveLength(31);
    const error = await failure<BotError>(over.renderApplication(app('many', { path: 'many' })));

    expect(error.code).toBe('too_large');
    expect(error.message).toBe(
      'many: it renders 31 objects, more than the limit of 30 per Application (nothing was applied): ' +
        'raise defaults.applicationLimits.maxObjects in wavesync.yaml, or split the Application',
    );
  });

  it('refuses manifests over the byte limit before parsing them, naming their size and the setting', async () => {
    const renderer = createApplicationRenderer({
      baseDir: scratch,
      limits: { maxObjects: 100, maxManifestBytes: 1024 },
    });

    const error = await failure<BotError>(renderer.renderApplication(app('many', { path: 'many' })));

    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(
      new RegExp(
        `^many: its manifests are [\\d,]+ bytes \\([\\d.]+ MiB\\) \\(2 files in ${dir}\\), more than the limit of 1,024 bytes \\(0\\.0 MiB\\) per Application ` +
          '\\(nothing was applied\\): raise defaults.applicationLimits.maxManifestBytes in wavesync.yaml, or split the Application$',
      ),
    );
  });

  it('stops with AbortedError when its signal is aborted, between documents', async () => {
    const big = path.join(scratch, 'big');
    await mkdir(big, { recursive: true });
    await writeFile(path.join(big, 'all.yaml'), configMaps(0, 5000));
    const controller = new AbortController();
    const renderer = createApplicationRenderer({ baseDir: scratch });

    const rendering = renderer.renderApplication(app('big', { path: 'big' }), { signal: controller.signal });
    setImmediate(() => controller.abort('cancelled'));
    const error = await failure(rendering);

    expect(error).toBeInstanceOf(AbortedError);
  });
});

describe.skipIf(!HAS_KUSTOMIZE)('renderApplication: Kustomize (needs kustomize or kubectl on PATH)', () => {
  const renderer = createApplicationRenderer({ baseDir: EXAMPLES });

  it('renders the pre-post-sync overlay with its base', async () => {
    const rendered = await renderer.renderApplication(
      app('pre-post-sync', { path: 'manifests/pre-post-sync' }),
    );

    expect(rendered.sourceType).toBe('Kustomize');
    expect(names(rendered.targets).sort()).toEqual([
      'Deployment/pre-post-sync-kustomize-guestbook-ui',
      'Job/pre-post-sync-after',
      'Job/pre-post-sync-before',
      'Service/pre-post-sync-kustomize-guestbook-ui',
    ]);
  });

  it('applies namePrefix (replacing the kustomization’s own) and images, without touching the source', async () => {
    const source = {
      path: 'manifests/kustomize-guestbook',
      kustomize: {
        namePrefix: 'wave-',
        images: ['gcr.io/google-samples/gb-frontend=registry.example.com/gb:v6'],
      },
    };

    const rendered = await renderer.renderApplication(app('kg', source));

    expect(names(rendered.targets).sort()).toEqual([
      'Deployment/wave-guestbook-ui',
      'Service/wave-guestbook-ui',
    ]);
    const deployment = rendered.targets.find((t) => t.object.kind === 'Deployment')?.object as unknown as {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    expect(deployment.spec.template.spec.containers[0]?.image).toBe('registry.example.com/gb:v6');
    const plain = await renderer.renderApplication(app('kg', { path: 'manifests/kustomize-guestbook' }));
    expect(names(plain.targets).sort()).toEqual([
      'Deployment/kustomize-guestbook-ui',
      'Service/kustomize-guestbook-ui',
    ]);
  });
});

describe('renderApplication: Helm', () => {
  async function fakeHelm(): Promise<string> {
    const script = path.join(scratch, 'fake-helm.mjs');
    await writeFile(
      script,
      [
        '#!/usr/bin/env node',
        "import { readFileSync } from 'node:fs';",
        'const args = process.argv.slice(2);',
        "const values = args.flatMap((a, i) => (args[i - 1] === '--values' ? [readFileSync(a, 'utf8')] : []));",
        "console.log(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'args' }, data: { args: JSON.stringify(args), values: JSON.stringify(values) } }));",
      ].join('\n'),
    );
    await chmod(script, 0o755);
    return script;
  }

  it('passes release name, namespace, value files, inline values and parameters as Argo CD does', async () => {
    const chart = path.join(scratch, 'chart');
    await mkdir(chart, { recursive: true });
    await writeFile(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: demo\nversion: 0.1.0\n');
    await writeFile(path.join(chart, 'values-prod.yaml'), 'replicas: 3\n');
    const renderer = createApplicationRenderer({ baseDir: scratch, helmBinary: await fakeHelm() });

    const rendered = await renderer.renderApplication(
      app('web', {
        path: 'chart',
        helm: {
          valueFiles: ['values-prod.yaml'],
          values: 'image: { tag: v2 }\n',
          parameters: [
            { name: 'hosts', value: 'a,b' },
            { name: 'list', value: '{x,y}' },
            { name: 'port', value: '80', forceString: true },
          ],
        },
      }),
    );

    expect(rendered.sourceType).toBe('Helm');
    const data = rendered.targets[0]?.object.data as { args: string; values: string };
    const args = JSON.parse(data.args) as string[];
    expect(args.slice(0, 5)).toEqual(['template', 'web', chart, '--namespace', 'web']);
    expect(args.slice(5)).toEqual([
      '--values',
      path.join(chart, 'values-prod.yaml'),
      '--values',
      expect.stringMatching(/wavesync-helm-.*values\.yaml$/),
      '--set',
      'hosts=a\\,b',
      '--set',
      'list={x,y}',
      '--set-string',
      'port=80',
      '--include-crds',
    ]);
    expect(JSON.parse(data.values)).toEqual(['replicas: 3\n', 'image: { tag: v2 }\n']);
  });

  it('refuses a value file outside the repository and names a missing one', async () => {
    const renderer = createApplicationRenderer({ baseDir: scratch, helmBinary: await fakeHelm() });
    const helmApp = (valueFiles: string[]) => app('web', { path: 'chart', helm: { valueFiles } });

    expect((await failure<BotError>(renderer.renderApplication(helmApp(['../../etc/passwd'])))).message).toBe(
      'helm value file ../../etc/passwd is outside the repository',
    );
    expect((await failure<BotError>(renderer.renderApplication(helmApp(['nope.yaml'])))).message).toBe(
      `helm value file nope.yaml not found in ${path.join(scratch, 'chart')} (set helm.ignoreMissingValueFiles: true to skip missing ones)`,
    );
  });

  it('names the helm binary when it is not on PATH', async () => {
    const renderer = createApplicationRenderer({ baseDir: scratch, helmBinary: 'wavesync-missing-helm' });

    const error = await failure<BotError>(renderer.renderApplication(app('web', { path: 'chart' })));

    expect(error.code).toBe('render_failed');
    expect(error.message).toBe(
      'wavesync-missing-helm is not on PATH; install Helm 3 (https://helm.sh/docs/intro/install/) to render Helm sources',
    );
  });

  it.skipIf(!HAS_HELM)(
    'renders argocd-example-apps helm-guestbook with a real helm (needs helm on PATH)',
    async () => {
      const { sharedFixturesDir } = await import('../../../test/support/shared-fixtures.js');
      const renderer = createApplicationRenderer({ baseDir: sharedFixturesDir('argocd-example-apps') });

      const rendered = await renderer.renderApplication(app('helm-guestbook', { path: 'helm-guestbook' }));

      expect(names(rendered.targets).sort()).toEqual(['Deployment/helm-guestbook', 'Service/helm-guestbook']);
    },
  );
});

describe('renderApplication: git sources', () => {
  let fixture: GitFixture;
  beforeAll(async () => {
    fixture = await createGitFixture();
  });
  afterAll(async () => {
    await fixture.cleanup();
  });

  it('renders at targetRevision, at an overriding revision, and names an unknown revision', async () => {
    const cm = (v: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata: { v: "${v}" }\n`;
    const v1 = await fixture.commit({ 'deploy/cm.yaml': cm('1') });
    fixture.tag('v1.0.0');
    const v2 = await fixture.commit({
      'deploy/cm.yaml': cm('2'),
      'deploy/extra.yaml': cm('x').replace('settings', 'extra'),
    });
    const git = createGitRepositoryCache({
      cacheDir: path.join(fixture.root, 'cache'),
      env: { PATH: process.env.PATH },
    });
    const renderer = createApplicationRenderer({ baseDir: scratch, git });
    const gitApp = app('cfg', { repoURL: fixture.url, path: 'deploy', targetRevision: 'v1.0.0' });

    const atTag = await renderer.renderApplication(gitApp);
    const atMain = await renderer.renderApplication(gitApp, { revision: 'main' });
    const atSha = await renderer.renderApplication(gitApp, { revision: v1 });

    expect([atTag.revision, atMain.revision, atSha.revision]).toEqual([v1, v2, v1]);
    expect(names(atTag.targets)).toEqual(['ConfigMap/settings']);
    expect(names(atMain.targets)).toEqual(['ConfigMap/settings', 'ConfigMap/extra']);
    expect(atTag.targets[0]?.source.file).toMatch(/checkouts\/[0-9a-f]{16}\/[0-9a-f]{40}\/deploy\/cm\.yaml$/);
    const unknown = await failure<BotError>(renderer.renderApplication(gitApp, { revision: 'v9' }));
    expect(unknown.code).toBe('revision_not_found');
    expect(unknown.message).toBe(
      `revision "v9" not found in ${fixture.url} (no branch, tag or commit of that name)`,
    );
    const escaped = await failure<BotError>(
      renderer.renderApplication({ ...gitApp, source: { ...gitApp.source, path: '../..' } }),
    );
    expect(escaped.message).toBe('cfg: source path ../.. leaves the repository');
  });

  it('renders an unchanged revision once with a render cache, and each caller gets its own copy', async () => {
    const v1 = await fixture.commit({
      'cached/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: cached }\ndata: { v: "1" }\n',
    });
    const git = createGitRepositoryCache({
      cacheDir: path.join(fixture.root, 'cache-rendered'),
      env: { PATH: process.env.PATH },
    });
    const { counts, renderCache } = countingCache();
    const renderer = createApplicationRenderer({ baseDir: scratch, git, renderCache });
    const gitApp = app('cached', { repoURL: fixture.url, path: 'cached', targetRevision: v1 });

    const first = await renderer.renderApplication(gitApp);
    (first.targets[0]!.object.data as Record<string, string>).v = 'changed by a caller';
    const second = await renderer.renderApplication(gitApp);
    const other = await renderer.renderApplication({ ...gitApp, name: 'other' });

    expect([counts.hits, renderCache.size]).toEqual([1, 2]);
    expect(second.revision).toBe(v1);
    expect(second.targets[0]!.object.data).toEqual({ v: '1' });
    expect(other.targets[0]!.object.data).toEqual({ v: '1' });
    // A source without a revision or content key (a local folder another tool renders): never cached.
    expect(renderKeyOf(app('local', { repoURL: '', path: 'plain' }), [undefined])).toBeUndefined();
  });
});
