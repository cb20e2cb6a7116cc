/**
 * GitRepositoryCache.checkoutPath: one folder of a repository at a tag, branch or SHA, fetched shallow and
 * blob-less, checked out sparse (over file://, the transport local tests can use; the bare repository allows
 * filters as GitHub does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import { createGitRepositoryCache } from './git-repository-cache.js';

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

let fixture: GitFixture;
beforeEach(async () => {
  fixture = await createGitFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const cache = () => createGitRepositoryCache({ cacheDir: path.join(fixture.root, 'cache'), env: ENV });

describe('checkoutPath', () => {
  it('checks out only the folder asked for (and the root files), at a tag, and no other folder', async () => {
    execFileSync('git', [
      '-C',
      fixture.url.replace('file://', ''),
      'config',
      'uploadpack.allowFilter',
      'true',
    ]);
    const sha = await fixture.commit({
      'resource_customizations/example.com/Widget/health.lua': 'return { status = "Healthy" }\n',
      'resource_customizations/_.example.com/_/health.lua': 'return { status = "Progressing" }\n',
      'docs/big.md': 'x'.repeat(100_000),
      'README.md': 'hello\n',
    });
    fixture.tag('v1.0.0');
    await fixture.commit({ 'resource_customizations/example.com/Widget/health.lua': 'return nil\n' });

    const checkout = await cache().checkoutPath(fixture.url, 'v1.0.0', 'resource_customizations');
    expect(checkout.sha).toBe(sha);
    const dir = path.join(checkout.dir, 'resource_customizations');
    expect(await readFile(path.join(dir, 'example.com/Widget/health.lua'), 'utf8')).toBe(
      'return { status = "Healthy" }\n',
    );
    expect(existsSync(path.join(dir, '_.example.com/_/health.lua'))).toBe(true);
    expect(existsSync(path.join(checkout.dir, 'docs'))).toBe(false);
    // Shallow: the one commit, not its history.
    const mirror = path.join(fixture.root, 'cache', 'repos');
    const [repo] = execFileSync('ls', [mirror]).toString().trim().split('\n');
    const count = execFileSync('git', ['-C', path.join(mirror, repo!), 'rev-list', '--count', '--all']);
    expect(count.toString().trim()).toBe('1');
    // Blob-less: the file outside the folder was never downloaded.
    const missing = execFileSync('git', [
      '-C',
      path.join(mirror, repo!),
      'rev-list',
      '--objects',
      '--missing=print',
      sha,
    ]);
    expect(missing.toString()).toMatch(/^\?[0-9a-f]{40}$/m);
  });

  it('names a revision the repository does not have', async () => {
    await fixture.commit({ 'scripts/a/health.lua': 'return {}\n' });
    const error = await failure(cache().checkoutPath(fixture.url, 'v9.9.9', 'scripts'));
    expect((error as Error).message).toMatch(/revision "v9\.9\.9" not found in file:\/\//);
  });
});
