import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitFixture, writeGitApplication } from '../../../test/support/git-fixture.js';
import { type CommandRun, runCommand } from '../../../test/support/run-command.js';
import { sharedFixturesDir as fixture } from '../../../test/support/shared-fixtures.js';
import { registerPlanCommand } from './plan.js';

const BIN = path.resolve(import.meta.dirname, '../../../bin/wavesync.js');
const HAS_KUSTOMIZE = ['kustomize', 'kubectl'].some((cmd) => spawnSync(cmd, ['version']).error === undefined);

interface JsonTask {
  phase: string;
  wave: number;
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  hookTypes: string[];
  deletePolicies: string[];
}

/** Runs `wavesync plan ...args` in process through commander, capturing what it writes. */
async function plan(...args: string[]): Promise<CommandRun> {
  return runCommand(registerPlanCommand, ['plan', ...args]);
}

async function planJson(
  target: string,
  ...args: string[]
): Promise<{ tasks: JsonTask[]; warnings: unknown[] }> {
  const { stdout, stderr, exitCode } = await plan(fixture(target), '--output', 'json', ...args);
  expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 });
  return JSON.parse(stdout);
}

function steps(tasks: JsonTask[]): string[] {
  return tasks.map((t) => `${t.phase}/${t.wave} ${t.kind}/${t.name}`);
}

describe('src/cli/commands/plan', () => {
  it('argocd-example-apps/sync-waves: hooks and resources in waves 0 to 3', async () => {
    const { tasks, warnings } = await planJson('argocd-example-apps/sync-waves');

    expect(
      steps(tasks).map((s) => s.replace(/upgrade-sql-schema\w{7}-presync-\d+$/, 'upgrade-sql-schema…')),
    ).toEqual([
      'PreSync/0 Job/upgrade-sql-schema…',
      'Sync/0 Service/backend',
      'Sync/0 ReplicaSet/backend',
      'Sync/1 Job/maint-page-up',
      'Sync/2 Service/frontend',
      'Sync/2 ReplicaSet/frontend',
      'Sync/3 Job/maint-page-down',
    ]);
    expect(tasks[3]).toEqual({
      phase: 'Sync',
      wave: 1,
      group: 'batch',
      version: 'v1',
      kind: 'Job',
      namespace: '',
      name: 'maint-page-up',
      hookTypes: ['Sync'],
      deletePolicies: ['BeforeHookCreation'],
    });
    expect(warnings).toEqual([]);
  });

  it('names generateName hooks from the content hash and the current time', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { tasks } = await planJson('argocd-example-apps/sync-waves');
    const after = Math.floor(Date.now() / 1000);

    const match = /^upgrade-sql-schema([0-9a-f]{7})-presync-(\d+)$/.exec(tasks[0]?.name ?? '');
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBeGreaterThanOrEqual(before);
    expect(Number(match?.[2])).toBeLessThanOrEqual(after);
  });

  it('argocd-example-apps/pre-post-sync: PreSync Job, Sync Service and Deployment, PostSync Job (Kustomize)', async () => {
    const result = await plan(fixture('argocd-example-apps/pre-post-sync'), '--output', 'json');

    if (!HAS_KUSTOMIZE) {
      expect(result).toMatchObject({ stdout: '', exitCode: 1 });
      expect(result.stderr).toContain('neither `kustomize` nor `kubectl` is on PATH');
      return;
    }
    const { tasks } = JSON.parse(result.stdout) as { tasks: JsonTask[] };
    expect(steps(tasks)).toEqual([
      'PreSync/0 Job/pre-post-sync-before',
      'Sync/0 Service/pre-post-sync-kustomize-guestbook-ui',
      'Sync/0 Deployment/pre-post-sync-kustomize-guestbook-ui',
      'PostSync/0 Job/pre-post-sync-after',
    ]);
    expect(tasks[0]?.deletePolicies).toEqual(['HookSucceeded']);
  });

  it('argocd-example-apps/helm-hooks: Helm hooks to phases, hook-weight to waves (also on a plain Service)', async () => {
    const { tasks } = await planJson('argocd-example-apps/helm-hooks');

    expect(steps(tasks).map((s) => s.replace(/schema\w{7}-presync-\d+$/, 'schema…'))).toEqual([
      'PreSync/-2 Job/upgrade-sql-schema…',
      'PreSync/-1 Job/maint-page-up',
      'Sync/0 ReplicaSet/frontend',
      'Sync/2 Service/frontend',
      'PostSync/0 Job/maint-page-down',
    ]);
    expect(tasks[1]?.deletePolicies).toEqual(['BeforeHookCreation']);
  });

  it('argo-cd-e2e/hook: the Sync hook Pod and the Pod share Sync wave 0, by name', async () => {
    const { tasks } = await planJson('argo-cd-e2e/hook', '--namespace', 'e2e');

    expect(
      tasks.map((t) => `${t.phase}/${t.wave} ${t.kind}/${t.namespace}/${t.name} [${t.hookTypes}]`),
    ).toEqual(['Sync/0 Pod/e2e/hook [Sync]', 'Sync/0 Pod/e2e/pod []']);
  });

  it('argo-cd-e2e/crd-creation: both CRDs, then their custom resources (Kustomize)', async () => {
    const result = await plan(fixture('argo-cd-e2e/crd-creation'), '--output', 'json', '--namespace', 'app');

    if (!HAS_KUSTOMIZE) {
      expect(result).toMatchObject({ stdout: '', exitCode: 1 });
      return;
    }
    const { tasks } = JSON.parse(result.stdout) as { tasks: JsonTask[] };
    expect(tasks.map((t) => `${t.phase}/${t.wave} ${t.kind}/${t.namespace}/${t.name}`)).toEqual([
      'Sync/0 CustomResourceDefinition//clusterdummies.argoproj.io',
      'Sync/0 CustomResourceDefinition//dummies.argoproj.io',
      'Sync/0 ClusterDummy//cluster-dummy-crd-instance',
      'Sync/0 Dummy/app/dummy-crd-instance',
      'Sync/0 Dummy/kube-system/dummy-crd-instance',
    ]);
  });

  it('argo-cd-e2e/sync-waves: cm-1 in wave 1, then cm-2 in wave 2', async () => {
    const { tasks } = await planJson('argo-cd-e2e/sync-waves');

    expect(steps(tasks)).toEqual(['Sync/1 ConfigMap/cm-1', 'Sync/2 ConfigMap/cm-2']);
  });

  it('prints a text table grouped by phase and wave, hooks marked', async () => {
    const { stdout, exitCode } = await plan(fixture('argocd-example-apps/sync-waves'), '--namespace', 'app');

    expect(exitCode).toBe(0);
    const lines = stdout.split('\n');
    expect(lines.filter((l) => l.includes('· wave'))).toEqual([
      'PreSync · wave 0',
      'Sync · wave 0',
      'Sync · wave 1',
      'Sync · wave 2',
      'Sync · wave 3',
    ]);
    expect(lines.find((l) => l.includes('maint-page-up'))).toMatch(
      /^ {2}Job +app +maint-page-up +batch\/v1 +hook Sync; delete policy BeforeHookCreation$/,
    );
    expect(stdout).toContain('\n7 tasks in 5 steps.\n');
  });

  describe('with bad input', () => {
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'wavesync-plan-'));
    });

    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it.each([
      [
        'syntax.yaml',
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: [p\n',
        /^error: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a \] \(\S*syntax\.yaml:5\): fix the YAML at that line \(indentation, quotes, brackets\)\n$/,
      ],
      [
        'no-kind.yaml',
        'apiVersion: v1\nmetadata: {name: p}\n',
        /^error: kind is missing.* \(\S*no-kind\.yaml:1\)/,
      ],
      [
        'no-name.yaml',
        'apiVersion: v1\nkind: Pod\nmetadata: {}\n',
        /^error: Pod: metadata\.name is required.* \(\S*no-name\.yaml:3\)/,
      ],
      [
        'dup.yaml',
        'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n',
        /^error: duplicate resource Pod\/p, also defined at \S*dup\.yaml:1 \(\S*dup\.yaml:5\): remove one of the two, or give them different names or namespaces\n$/,
      ],
    ])('%s → exit 2, one error line on stderr, nothing on stdout', async (name, text, error) => {
      await writeFile(path.join(dir, name), text);

      const result = await plan(path.join(dir, name), '--output', 'json');

      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(error);
    });

    it('rejects a missing path', async () => {
      const result = await plan(path.join(dir, 'nope'));

      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(result.stderr).toBe(
        `error: no such file or directory (${path.join(dir, 'nope')}): give a manifest file or a directory of ` +
          `manifests that exists (relative paths start at ${process.cwd()})\n`,
      );
    });

    it('lists warnings below the plan, with file and line', async () => {
      const file = path.join(dir, 'warn.yaml');
      await writeFile(
        file,
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations: {argocd.argoproj.io/sync-wave: "1.5"}\n',
      );

      const json = JSON.parse((await plan(file, '-o', 'json')).stdout);
      const text = (await plan(file)).stdout;

      expect(json.warnings).toEqual([
        {
          file,
          line: 1,
          message:
            'ConfigMap/c: annotation argocd.argoproj.io/sync-wave: "1.5" is not an integer (Go strconv.Atoi syntax); Argo CD falls back to 0',
        },
      ]);
      expect(text).toContain(
        `Warnings (1):\n  ${file}:1: ConfigMap/c: annotation argocd.argoproj.io/sync-wave`,
      );
    });
  });

  it('warns about a PreSync Job that reads a ConfigMap this sync creates later (examples/rails-broken-waves), text and JSON', async () => {
    const folder = path.resolve(import.meta.dirname, '../../../examples/rails-broken-waves');
    const message =
      'PreSync Job/db-migrate reads ConfigMap/rails-env, which this sync creates later (Sync wave 0): make it a PreSync hook in an earlier wave';

    const json = JSON.parse((await plan(folder, '-o', 'json', '-n', 'shop')).stdout);
    const text = (await plan(folder, '-n', 'shop')).stdout;

    expect(json.warnings).toEqual([{ file: path.join(folder, 'db-migrate.yaml'), line: 1, message }]);
    expect(text).toContain(`Warnings (1):\n  ${path.join(folder, 'db-migrate.yaml')}:1: ${message}\n`);
  });

  it('has no reference warning when the ConfigMap is a PreSync hook in an earlier wave (examples/rails)', async () => {
    const folder = path.resolve(import.meta.dirname, '../../../examples/rails');

    const json = JSON.parse((await plan(folder, '-o', 'json', '-n', 'shop')).stdout);

    expect(json.warnings).toEqual([]);
  });

  it('keeps each file it parsed in the manifest cache ($WAVESYNC_CACHE_DIR), and none with WAVESYNC_MANIFEST_CACHE=off', async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'plan-cache-'));
    const saved = { dir: process.env.WAVESYNC_CACHE_DIR, off: process.env.WAVESYNC_MANIFEST_CACHE };
    try {
      process.env.WAVESYNC_CACHE_DIR = cacheDir;
      delete process.env.WAVESYNC_MANIFEST_CACHE;
      const target = fixture('argo-cd-e2e/sync-waves');
      const cold = await plan(target, '-o', 'json');
      const entries = await readdir(path.join(cacheDir, 'manifests'));
      expect(entries.length).toBeGreaterThan(0);
      const warm = await plan(target, '-o', 'json');
      expect(warm).toEqual(cold);
      expect(cold.exitCode).toBe(0);

      process.env.WAVESYNC_MANIFEST_CACHE = 'off';
      process.env.WAVESYNC_CACHE_DIR = path.join(cacheDir, 'other');
      expect(await plan(target, '-o', 'json')).toEqual(cold);
      expect(await readdir(cacheDir)).toEqual(['manifests']);
    } finally {
      for (const [name, value] of [
        ['WAVESYNC_CACHE_DIR', saved.dir],
        ['WAVESYNC_MANIFEST_CACHE', saved.off],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  // Two real processes through tsx: slow to start on a loaded machine, hence the longer timeout.
  it('works end to end through bin/wavesync.js: JSON on stdout, and exit code 2 for bad input', {
    timeout: 90_000,
  }, async () => {
    const run = promisify(execFile);
    const [ok, bad] = await Promise.all([
      run(process.execPath, [BIN, 'plan', fixture('argo-cd-e2e/sync-waves'), '--output', 'json']),
      run(process.execPath, [BIN, 'plan', fixture('argo-cd-e2e/sync-waves/missing.yaml')]).catch((e) => e),
    ]);

    expect(steps(JSON.parse(ok.stdout).tasks)).toEqual(['Sync/1 ConfigMap/cm-1', 'Sync/2 ConfigMap/cm-2']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(
      /^error: no such file or directory \(\S*missing\.yaml\): give a manifest file /,
    );
    expect(bad.stderr).not.toContain('ENOENT');
  });
});

describe('wavesync plan --app (an Application of wavesync.yaml, rendered as /sync renders it)', () => {
  const config = path.resolve(import.meta.dirname, '../../../examples/wavesync.yaml');

  it('plans examples/applications/rails.yaml: its source folder, destination namespace and CreateNamespace=true', async () => {
    const { stdout, stderr, exitCode } = await plan('--app', 'rails', '--config', config, '--output', 'json');
    expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 });
    const document = JSON.parse(stdout) as {
      application: { name: string; environment: string; namespace: string; revision: string };
      tasks: JsonTask[];
    };

    expect(document.application).toMatchObject({ name: 'rails', environment: 'staging', namespace: 'rails' });
    expect(document.application.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(steps(document.tasks)).toEqual([
      'PreSync/0 Namespace/rails',
      'PreSync/1 ConfigMap/rails-env',
      'PreSync/2 Job/db-migrate',
      'Sync/0 Service/web',
      'Sync/0 Deployment/web',
      'Sync/0 Ingress/web',
      'PostSync/0 Job/smoke-test',
    ]);
    expect(document.tasks.find((t) => t.kind === 'Namespace')?.namespace).toBe('');
    expect(document.tasks.filter((t) => t.kind !== 'Namespace').every((t) => t.namespace === 'rails')).toBe(
      true,
    );
  });

  it('prints the Application, environment and revision above the text plan', async () => {
    const { stdout, exitCode } = await plan('--app', 'rails', '--config', config);
    expect(exitCode).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^rails → staging · namespace rails · revision local@[0-9a-f]{8}$/);
    expect(stdout).toMatch(/\n {2}Namespace +- +rails +v1\n/);
    expect(stdout).toContain('7 tasks in 5 steps.');
  });

  it('names an unknown Application with "Did you mean", refuses --revision for a local folder and a path together with --app', async () => {
    const known =
      'app-of-apps, broken-migration, checkout, guestbook, orders, payments, pre-post-sync, rails, sync-waves';
    const unknown = await plan('--app', 'raills', '--config', config);
    expect(unknown).toMatchObject({ stdout: '', exitCode: 2 });
    expect(unknown.stderr).toBe(
      `error: no Application named "raills" (${config}): did you mean rails? (known: ${known})\n`,
    );
    const nope = await plan('--app', 'nope', '--config', config);
    expect(nope).toMatchObject({ stdout: '', exitCode: 2 });
    expect(nope.stderr).toBe(`error: no Application named "nope" (${config}): use one of ${known}\n`);

    const local = await plan('--app', 'rails', '--config', config, '--revision', 'main');
    expect(local).toMatchObject({ stdout: '', exitCode: 2 });
    expect(local.stderr).toMatch(
      /^error: --revision main: rails has a local folder as its source, which has no revisions \(\S+\.yaml:\d+\): drop --revision: the folder's content is what syncs\n$/,
    );
    const both = await plan('examples/rails', '--app', 'rails', '--config', config);
    expect(both).toMatchObject({ stdout: '', exitCode: 2 });
    expect(both.stderr).toMatch(/give a path or --app, not both/);
  });
});

describe('wavesync plan --app with a git source: one revision format for people, the full SHA in JSON', () => {
  it('prints `<7-char SHA> (<ref>)` in the text and keeps the full SHA and the ref in the JSON', async () => {
    const git = await createGitFixture();
    try {
      const sha = await git.commit({
        'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
      });
      const config = await writeGitApplication(git, { name: 'shop', namespace: 'shop' });

      const text = await plan('--app', 'shop', '--config', config);
      expect(text.stderr).toBe('');
      expect(text.stdout.split('\n')[0]).toBe(`shop · namespace shop · revision ${sha.slice(0, 7)} (main)`);
      const json = await plan('--app', 'shop', '--config', config, '-o', 'json');
      expect(JSON.parse(json.stdout).application).toEqual({
        name: 'shop',
        namespace: 'shop',
        revision: sha,
        ref: 'main',
      });
    } finally {
      await git.cleanup();
    }
  }, 30_000);
});

describe('wavesync plan --app with a multi-source Application: each source’s revision', () => {
  it('prints every source’s revision joined by + and keeps them, joined by ;, in the JSON', async () => {
    const git = await createGitFixture();
    try {
      const sha = await git.commit({
        'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
      });
      const config = path.join(git.root, 'wavesync.yaml');
      await writeFile(
        config,
        `applications: [{ file: apps.yaml }]\ndefaults: { gitCacheDir: ${path.join(git.root, 'cache')} }\n`,
      );
      await writeFile(
        path.join(git.root, 'local.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: local\n',
      );
      await writeFile(
        path.join(git.root, 'apps.yaml'),
        [
          'apiVersion: argoproj.io/v1alpha1',
          'kind: Application',
          'metadata: { name: shop }',
          'spec:',
          '  sources:',
          `    - { repoURL: "${git.url}", path: app, targetRevision: main }`,
          '    - { repoURL: "", path: ., directory: { include: local.yaml } }',
          '  destination: { namespace: shop }',
          '',
        ].join('\n'),
      );

      const text = await plan('--app', 'shop', '--config', config);
      const json = await plan('--app', 'shop', '--config', config, '-o', 'json');

      expect(text.stderr).toBe('');
      expect(text.stdout.split('\n')[0]).toMatch(
        new RegExp(`^shop · namespace shop · revision ${sha.slice(0, 7)} \\(main\\) \\+ local@[0-9a-f]{8}$`),
      );
      const application = JSON.parse(json.stdout).application;
      expect(application.revision).toMatch(new RegExp(`^${sha};[0-9a-f]{12}$`));
      expect(application.ref).toBe('main;');
      expect(JSON.parse(json.stdout).tasks.map((t: JsonTask) => t.name)).toEqual(['cm', 'local']);
    } finally {
      await git.cleanup();
    }
  }, 30_000);
});
