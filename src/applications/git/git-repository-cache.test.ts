import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import { BotError } from '../../domain/index.js';
import { createLogger } from '../../logger.js';
import { createGitRepositoryCache } from './git-repository-cache.js';

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

let fixture: GitFixture;
beforeEach(async () => {
  fixture = await createGitFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

function cache(extra: Partial<Parameters<typeof createGitRepositoryCache>[0]> = {}) {
  return createGitRepositoryCache({ cacheDir: path.join(fixture.root, 'cache'), env: ENV, ...extra });
}

async function fileAt(dir: string, file: string): Promise<string> {
  return readFile(path.join(dir, file), 'utf8');
}

describe('createGitRepositoryCache', () => {
  it('works when the process environment holds any variable simple-git guards (EDITOR, VISUAL, PAGER, PREFIX, SSH_ASKPASS)', async () => {
    const sha = await fixture.commit({ 'app/cm.yaml': 'v: pager\n' });
    const git = cache({
      env: {
        ...ENV,
        EDITOR: 'vim',
        VISUAL: 'code -w',
        PAGER: 'less',
        GIT_PAGER: 'less',
        PREFIX: '/usr',
        SSH_ASKPASS: '/usr/bin/askpass',
      },
    });

    expect((await git.checkout(fixture.url, 'main')).sha).toBe(sha);
  });

  it('gives up on a remote that accepts the connection and never answers, naming the request timeout', async () => {
    // A server that accepts connections and never answers: what an unreachable host behind a firewall looks like.
    const sockets: import('node:net').Socket[] = [];
    const server = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const git = cache({ requestTimeoutMs: 500 });
      const error = await failure(git.resolveRevision(`http://127.0.0.1:${port}/repo.git`, 'main'));
      expect(error).toBeInstanceOf(BotError);
      expect((error as BotError).message).toBe(
        `git ls-remote of http://127.0.0.1:${port}/repo.git failed: no answer from the repository within 0.5 s (defaults.gitRequestTimeoutSeconds)`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('gives up on a git binary that hangs, instead of holding the operation for the command timeout', async () => {
    const bin = path.join(fixture.root, 'hung-bin');
    await mkdir(bin);
    await writeFile(path.join(bin, 'git'), '#!/bin/sh\nexec sleep 600\n', { mode: 0o755 });
    const git = cache({ env: { ...ENV, PATH: `${bin}:${ENV.PATH}` }, requestTimeoutMs: 500 });

    const error = await failure(git.resolveRevision(fixture.url, 'main'));
    expect((error as BotError).message).toMatch(
      /^git init of file:\/\/\S+ failed: git did not finish within 0\.5 s \(defaults\.gitRequestTimeoutSeconds\)$/,
    );
  });

  it('checks out HEAD, a branch, a lightweight tag, an annotated tag, a SHA and an abbreviated SHA', async () => {
    const first = await fixture.commit({ 'app/cm.yaml': 'v: 1\n' });
    fixture.tag('v1');
    fixture.tag('v1-annotated', 'release 1');
    const second = await fixture.commit({ 'app/cm.yaml': 'v: 2\n' });
    const git = cache();

    const head = await git.checkout(fixture.url, 'HEAD');
    const main = await git.checkout(fixture.url, 'main');
    const tag = await git.checkout(fixture.url, 'v1');
    const annotated = await git.checkout(fixture.url, 'v1-annotated');
    const bySha = await git.checkout(fixture.url, first);
    const short = await git.resolveRevision(fixture.url, first.slice(0, 9));

    expect([head.sha, main.sha, tag.sha, annotated.sha, bySha.sha, short]).toEqual([
      second,
      second,
      first,
      first,
      first,
      first,
    ]);
    expect(await fileAt(head.dir, 'app/cm.yaml')).toBe('v: 2\n');
    expect(await fileAt(tag.dir, 'app/cm.yaml')).toBe('v: 1\n');
    expect(tag.dir).toBe(bySha.dir);
  });

  it('picks up a moved branch and keeps the old checkout intact', async () => {
    const before = await fixture.commit({ 'a.yaml': 'old\n' });
    const git = cache();
    const old = await git.checkout(fixture.url, 'main');

    const after = await fixture.commit({ 'a.yaml': 'new\n' });
    const moved = await git.checkout(fixture.url, 'main');

    expect(old.sha).toBe(before);
    expect(moved.sha).toBe(after);
    expect(await fileAt(moved.dir, 'a.yaml')).toBe('new\n');
    expect(await fileAt(old.dir, 'a.yaml')).toBe('old\n');
  });

  it('resolves a branch other than the default and a tag moved with --force', async () => {
    await fixture.commit({ 'a.yaml': 'main\n' });
    fixture.branch('feature');
    const feature = await fixture.commit({ 'a.yaml': 'feature\n' });
    fixture.tag('stable');
    const git = cache();
    expect(await git.resolveRevision(fixture.url, 'feature')).toBe(feature);
    expect(await git.resolveRevision(fixture.url, 'stable')).toBe(feature);

    const next = await fixture.commit({ 'a.yaml': 'feature 2\n' });
    fixture.tag('stable');

    expect(await git.resolveRevision(fixture.url, 'stable')).toBe(next);
  });

  it('names an unknown revision', async () => {
    await fixture.commit({ 'a.yaml': 'x\n' });
    const git = cache();

    for (const revision of ['no-such-branch', 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef', 'abcdef1']) {
      const error = await failure<BotError>(git.checkout(fixture.url, revision));
      expect(error).toBeInstanceOf(BotError);
      expect((error as BotError).code).toBe('revision_not_found');
      expect((error as BotError).message).toBe(
        `revision "${revision}" not found in ${fixture.url} (no branch, tag or commit of that name)`,
      );
    }
  });

  it('serialises concurrent checkouts of one repository', async () => {
    const shas = [
      await fixture.commit({ 'a.yaml': '1\n' }),
      await fixture.commit({ 'a.yaml': '2\n' }),
      await fixture.commit({ 'a.yaml': '3\n' }),
    ];
    const git = cache();

    const results = await Promise.all(
      [...shas, ...shas, 'main'].map((rev) => git.checkout(fixture.url, rev)),
    );

    expect(results.map((r) => r.sha)).toEqual([...shas, ...shas, shas[2]]);
    expect(await Promise.all(results.map((r) => fileAt(r.dir, 'a.yaml')))).toEqual([
      '1\n',
      '2\n',
      '3\n',
      '1\n',
      '2\n',
      '3\n',
      '3\n',
    ]);
  });

  it('reports an unreachable repository with git’s message', async () => {
    const error = await failure<BotError>(cache().checkout(`file://${fixture.root}/missing.git`, 'HEAD'));

    expect(error).toBeInstanceOf(BotError);
    expect((error as BotError).code).toBe('render_failed');
    expect((error as BotError).message).toMatch(/^git ls-remote of file:\/\/.*missing\.git failed: .*/);
  });
});

describe('git credentials', () => {
  const TOKEN = 'ghp_wavesyncTestToken0123456789';

  it('sends the token as an HTTP header only, and never shows it in errors or logs', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(404).end('not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/acme/app.git`;
    let logged = '';
    const logger = createLogger({
      level: 'trace',
      destination: new Writable({
        write(chunk, _enc, done) {
          logged += String(chunk);
          done();
        },
      }),
    });
    try {
      const git = cache({
        env: { ...ENV, ACME_TOKEN: TOKEN },
        credentials: [{ url: 'http://127.0.0.1', username: 'x-access-token', tokenEnv: 'ACME_TOKEN' }],
        logger,
      });

      const error = await failure<BotError>(git.checkout(url, 'main'));

      expect(error).toBeInstanceOf(BotError);
      expect(seen[0]?.authorization).toBe(
        `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`,
      );
      expect(error.message).toContain(url);
      for (const text of [error.message, String(error.stack), logged]) {
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString('base64'));
      }
      expect(logged).toContain('"git":"ls-remote"');
      const [mirror] = await readdir(path.join(fixture.root, 'cache/repos'));
      const config = await readFile(path.join(fixture.root, 'cache/repos', mirror ?? '?', 'config'), 'utf8');
      expect(config).toContain(`url = ${url}`);
      expect(config).not.toContain(TOKEN);
    } finally {
      server.close();
    }
  });

  it('redacts user info written into a repository URL', async () => {
    const error = await failure<BotError>(cache().checkout(`http://bob:${TOKEN}@127.0.0.1:9/x.git`, 'main'));

    expect(error.message).toContain('http://127.0.0.1:9/x.git');
    expect(error.message).not.toContain(TOKEN);
  });

  it('names an unset token variable without guessing its value', async () => {
    const error = await failure<BotError>(
      cache({ credentials: [{ url: 'file://', username: 'u', tokenEnv: 'MISSING_TOKEN' }] }).checkout(
        fixture.url,
        'HEAD',
      ),
    );

    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe('git credential for file://: variable MISSING_TOKEN is empty or unset');
  });

  it('works against a file:// remote with a credential configured', async () => {
    const sha = await fixture.commit({ 'a.yaml': 'x\n' });
    const git = cache({
      env: { ...ENV, ACME_TOKEN: TOKEN },
      credentials: [{ url: 'file://', username: 'x-access-token', tokenEnv: 'ACME_TOKEN' }],
    });

    expect((await git.checkout(fixture.url, 'main')).sha).toBe(sha);
  });

  it('lists the remote refs in one request, and describes a commit: author, subject, files changed since the last', async () => {
    const one = await fixture.commit({ 'app/a.yaml': 'a: 1\n', 'docs/x.md': 'x\n' }, 'first');
    fixture.tag('v1.0.0', 'release');
    const two = await fixture.commit({ 'app/a.yaml': 'a: 2\n', 'app/b.yaml': 'b: 1\n' }, 'Bump a, add b');
    const git = cache();

    const refs = await git.listRefs(fixture.url);
    expect(refs.get('refs/heads/main')).toBe(two);
    expect(refs.get('refs/tags/v1.0.0^{}')).toBe(one);

    const since = await git.describeCommit(fixture.url, two, one);
    expect(since).toEqual({
      sha: two,
      author: 'wavesync-test',
      subject: 'Bump a, add b',
      files: ['app/a.yaml', 'app/b.yaml'],
    });
    // Without a known previous commit: the files of the commit itself.
    expect((await git.describeCommit(fixture.url, one)).files.sort()).toEqual(['app/a.yaml', 'docs/x.md']);
    const missing = await failure(git.describeCommit(fixture.url, 'f'.repeat(40)));
    expect((missing as BotError).code).toBe('revision_not_found');
  });
});
