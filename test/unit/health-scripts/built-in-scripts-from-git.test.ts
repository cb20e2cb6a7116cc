/**
 * wavesync.yaml health.builtInScripts as a git source (repoURL, targetRevision, path): the folder is fetched
 * through the git layer (only that path) the first time a built-in script is needed, over file:// here; argocd-cm
 * overrides never wait for it; the settings refuse a source that is both or neither.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitRepositoryCache } from '../../../src/applications/git/git-repository-cache.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { scriptedHealthFromSettings } from '../../../src/health-scripts/index.js';
import { HealthSettingsSchema } from '../../../src/settings/settings-schema.js';
import { failure } from '../../support/failure.js';
import { createGitFixture, type GitFixture } from '../../support/git-fixture.js';

let fixture: GitFixture;
beforeEach(async () => {
  fixture = await createGitFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const widget = (ready: boolean): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  status: { ready },
});
const gadget: KubeObject = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } };

function countingGit() {
  const git = createGitRepositoryCache({
    cacheDir: path.join(fixture.root, 'cache'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const calls: string[] = [];
  return {
    calls,
    checkoutPath: (repoURL: string, revision: string, subpath: string) => {
      calls.push(`${revision}:${subpath}`);
      return git.checkoutPath(repoURL, revision, subpath);
    },
  };
}

describe('built-in health scripts from a git source', () => {
  it('fetches the folder at the tag on first need and judges by its scripts; overrides do not wait for it', async () => {
    await fixture.commit({
      'resource_customizations/example.com/Widget/health.lua':
        'if obj.status.ready then return { status = "Healthy" } end\nreturn { status = "Progressing", message = "widget warming up" }\n',
      'docs/unrelated.md': 'not fetched\n',
    });
    fixture.tag('v3.1.0');
    await fixture.commit({
      'resource_customizations/example.com/Widget/health.lua': 'return { status = "Degraded" }\n',
    });
    const health = HealthSettingsSchema.parse({
      builtInScripts: { repoURL: fixture.url, targetRevision: 'v3.1.0', path: 'resource_customizations' },
      argocdCm: { 'resource.customizations.health.example.com_Gadget': 'return { status = "Suspended" }' },
    });
    const git = countingGit();
    const scripted = scriptedHealthFromSettings(health, '/config/wavesync.yaml', git)!;

    expect(await scripted(gadget, { hasOwnCheck: false })).toEqual({ status: 'Suspended', message: '' });
    expect(git.calls).toEqual([]); // the override needed no fetch
    expect(await scripted(widget(false), { hasOwnCheck: false })).toEqual({
      status: 'Progressing',
      message: 'widget warming up',
    });
    expect(await scripted(widget(true), { hasOwnCheck: false })).toEqual({ status: 'Healthy', message: '' });
    expect(git.calls).toEqual(['v3.1.0:resource_customizations']); // once
  });

  it('a revision that does not exist fails the evaluation naming the source, and is tried again', async () => {
    await fixture.commit({ 'resource_customizations/example.com/Widget/health.lua': 'return {}\n' });
    const health = HealthSettingsSchema.parse({
      builtInScripts: { repoURL: fixture.url, targetRevision: 'v9.9.9', path: 'resource_customizations' },
    });
    const git = countingGit();
    const scripted = scriptedHealthFromSettings(health, '/config/wavesync.yaml', git)!;
    const error = await failure(Promise.resolve(scripted(widget(true), { hasOwnCheck: false })));
    expect((error as Error).message).toMatch(
      /^health scripts from file:\/\/.* at v9\.9\.9 \(resource_customizations\) could not be fetched: revision "v9\.9\.9" not found/,
    );
    await failure(Promise.resolve(scripted(widget(true), { hasOwnCheck: false })));
    expect(git.calls).toHaveLength(2);
  });

  it('settings: a directory or a git source with repoURL and path, never both', () => {
    const problems = (builtInScripts: unknown) =>
      HealthSettingsSchema.safeParse({ builtInScripts }).error?.issues.map(
        (i) => `${i.path.join('.')}: ${i.message}`,
      );
    expect(problems({ directory: 'x', repoURL: 'https://example.com/r.git' })).toEqual([
      'builtInScripts.repoURL: either directory or a git source (repoURL, targetRevision, path), not both',
    ]);
    expect(problems({ repoURL: 'https://example.com/r.git' })?.[0]).toMatch(
      /^builtInScripts\.path: give directory/,
    );
    expect(problems({ targetRevision: 'v1' })?.[0]).toMatch(/^builtInScripts\.repoURL: give directory/);
    expect(
      problems({
        repoURL: 'https://github.com/argoproj/argo-cd',
        targetRevision: 'v3.1.0',
        path: 'resource_customizations',
      }),
    ).toBeUndefined();
  });
});
