import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testApplication } from '../../../test/support/test-application.js';
import { generatePaths, pushConcerns } from './match-applications.js';
import { envelopeOf, type PushEvent, pushesOf, verify } from './webhook-payloads.js';

const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures/webhooks');
const body = (name: string) => readFileSync(path.join(fixtures, name));
const hmac = (secret: string, data: Buffer) => createHmac('sha256', secret).update(data).digest('hex');
const only = (pushes: ReturnType<typeof pushesOf>): PushEvent => {
  if (!Array.isArray(pushes) || pushes.length !== 1)
    throw new Error(`expected one push: ${JSON.stringify(pushes)}`);
  return pushes[0]!;
};

describe('push webhooks of each git host', () => {
  it('GitHub: X-Hub-Signature-256 over the raw body; the repository URLs, ref, new commit and files', () => {
    const raw = body('github-push.json');
    const headers = {
      'x-github-event': 'push',
      'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'x-hub-signature-256': `sha256=${hmac('s3cret', raw)}`,
    };
    const envelope = envelopeOf(headers)!;
    expect(envelope).toMatchObject({
      provider: 'GitHub',
      event: 'push',
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    });
    expect(verify('GitHub', headers, raw, 's3cret')).toBe(true);
    expect(verify('GitHub', headers, raw, 'other')).toBe(false);
    expect(verify('GitHub', headers, Buffer.concat([raw, Buffer.from(' ')]), 's3cret')).toBe(false);
    expect(verify('GitHub', { ...headers, 'x-hub-signature-256': undefined }, raw, 's3cret')).toBe(false);
    const push = only(pushesOf('GitHub', JSON.parse(raw.toString())));
    expect(push).toMatchObject({
      ref: 'refs/heads/main',
      after: '3f9c2e1a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e',
      defaultBranch: 'main',
      changedFiles: ['guestbook/deployment.yaml'],
    });
    expect(push.repoURLs).toContain('git@github.com:Codertocat/Hello-World.git');
  });

  it('GitLab: X-Gitlab-Token is the secret itself; files of every listed commit', () => {
    const raw = body('gitlab-push.json');
    const headers = { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'tok', 'x-gitlab-event-uuid': 'u-1' };
    expect(envelopeOf(headers)).toMatchObject({ provider: 'GitLab', event: 'push', deliveryId: 'u-1' });
    expect(verify('GitLab', headers, raw, 'tok')).toBe(true);
    expect(verify('GitLab', { ...headers, 'x-gitlab-token': 'tok2' }, raw, 'tok')).toBe(false);
    expect(verify('GitLab', { ...headers, 'x-gitlab-token': 'TOK' }, raw, 'tok')).toBe(false);
    const push = only(pushesOf('GitLab', JSON.parse(raw.toString())));
    expect(push).toMatchObject({
      ref: 'refs/heads/master',
      after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
    });
    expect(push.changedFiles?.sort()).toEqual(['CHANGELOG', 'app/controller/application.rb']);
    // More commits than listed (GitLab lists 20): the files are not all known, so nothing is narrowed.
    const truncated = { ...JSON.parse(raw.toString()), total_commits_count: 40 };
    expect(only(pushesOf('GitLab', truncated)).changedFiles).toBeUndefined();
  });

  it('Bitbucket Cloud: X-Hook-UUID is the webhook UUID; one push per changed branch, no file list', () => {
    const raw = body('bitbucket-push.json');
    const uuid = '{f3c8b7a2-1d4e-4c5b-9a6f-0e1d2c3b4a59}';
    const headers = { 'x-event-key': 'repo:push', 'x-hook-uuid': uuid, 'x-request-uuid': 'r-1' };
    expect(envelopeOf(headers)).toMatchObject({ provider: 'Bitbucket', event: 'push', deliveryId: 'r-1' });
    expect(verify('Bitbucket', headers, raw, 'f3c8b7a2-1d4e-4c5b-9a6f-0e1d2c3b4a59')).toBe(true);
    expect(verify('Bitbucket', { ...headers, 'x-hook-uuid': '{0}' }, raw, uuid)).toBe(false);
    const push = only(pushesOf('Bitbucket', JSON.parse(raw.toString())));
    expect(push).toMatchObject({ ref: 'refs/heads/main', after: '709d658dc5b6d6afcd46049c2f332ee3f515a67d' });
    expect(push.changedFiles).toBeUndefined();
    expect(push.repoURLs).toContain('https://bitbucket.org/team/webapp');
  });

  it('Bitbucket Server: X-Hub-Signature sha256=…; refs_changed lists the ref and its new hash', () => {
    const raw = body('bitbucket-server-refs-changed.json');
    const headers = {
      'x-event-key': 'repo:refs_changed',
      'x-request-id': 'b-1',
      'x-hub-signature': `sha256=${hmac('k', raw)}`,
    };
    expect(envelopeOf(headers)).toMatchObject({
      provider: 'Bitbucket Server',
      event: 'push',
      deliveryId: 'b-1',
    });
    expect(envelopeOf({ 'x-event-key': 'diagnostics:ping' })).toMatchObject({ event: 'ping' });
    expect(verify('Bitbucket Server', headers, raw, 'k')).toBe(true);
    const push = only(pushesOf('Bitbucket Server', JSON.parse(raw.toString())));
    expect(push).toMatchObject({
      ref: 'refs/heads/master',
      after: '178864a7d521b6f5e720b386b2c2b0ef8563e0dc',
    });
    expect(push.repoURLs).toEqual([
      'ssh://git@bitbucket.example.com:7999/proj/repository.git',
      'https://bitbucket.example.com/scm/proj/repository.git',
    ]);
  });

  it('Gitea and Gogs: the hex HMAC without prefix; Gitea is recognised before the GitHub headers it also sends', () => {
    const raw = body('gitea-push.json');
    const sig = hmac('g', raw);
    const gitea = {
      'x-gitea-event': 'push',
      'x-github-event': 'push',
      'x-gogs-event': 'push',
      'x-gitea-delivery': 'd',
      'x-gitea-signature': sig,
    };
    expect(envelopeOf(gitea)).toMatchObject({ provider: 'Gitea', deliveryId: 'd' });
    expect(verify('Gitea', gitea, raw, 'g')).toBe(true);
    const gogs = { 'x-gogs-event': 'push', 'x-gogs-delivery': 'e', 'x-gogs-signature': sig };
    expect(envelopeOf(gogs)).toMatchObject({ provider: 'Gogs', deliveryId: 'e' });
    expect(verify('Gogs', gogs, raw, 'g')).toBe(true);
    expect(verify('Gogs', gogs, raw, 'h')).toBe(false);
    expect(only(pushesOf('Gitea', JSON.parse(raw.toString())))).toMatchObject({
      ref: 'refs/heads/develop',
      changedFiles: ['deploy/values.yaml'],
    });
  });

  it('anything else is no webhook; a payload without a ref is a problem', () => {
    expect(envelopeOf({ 'content-type': 'application/json' })).toBeUndefined();
    expect(pushesOf('GitHub', { zen: 'hi' })).toEqual({ problem: 'the push has no ref' });
  });
});

describe('which Applications a push concerns', () => {
  const push: PushEvent = {
    provider: 'GitHub',
    repoURLs: ['https://github.com/Org/Repo', 'git@github.com:Org/Repo.git'],
    ref: 'refs/heads/main',
    after: 'a'.repeat(40),
    defaultBranch: 'main',
    changedFiles: ['apps/web/deployment.yaml', 'README.md'],
  };
  const app = (
    targetRevision: string,
    annotations: Record<string, string> = {},
    repoURL = 'https://github.com/org/repo.git',
  ) => testApplication({ source: { repoURL, path: 'apps/web', targetRevision }, annotations });

  it('matches the repository (any spelling) and the branch; HEAD follows the default branch', () => {
    expect(pushConcerns(app('main'), push)).toBe(true);
    expect(pushConcerns(app('HEAD'), push)).toBe(true);
    expect(pushConcerns(app('refs/heads/main'), push)).toBe(true);
    expect(pushConcerns(app('develop'), push)).toBe(false);
    expect(pushConcerns(app('main', {}, 'https://github.com/org/other'), push)).toBe(false);
    expect(pushConcerns(app('HEAD'), { ...push, ref: 'refs/heads/feature' })).toBe(false);
  });

  it('narrows by argocd.argoproj.io/manifest-generate-paths: "."-relative to the source path, "/" from the root', () => {
    const paths = (value: string) => app('main', { 'argocd.argoproj.io/manifest-generate-paths': value });
    expect(pushConcerns(paths('.'), push)).toBe(true);
    expect(pushConcerns(paths('../api'), push)).toBe(false);
    expect(pushConcerns(paths('../api;/README.md'), push)).toBe(true);
    expect(pushConcerns(paths('/docs'), push)).toBe(false);
    // Without a file list (Bitbucket), the annotation cannot narrow: the Application is refreshed.
    expect(pushConcerns(paths('/docs'), { ...push, changedFiles: undefined })).toBe(true);
    expect(generatePaths('.; ../shared ;/charts/', 'apps/web')).toEqual([
      'apps/web',
      'apps/shared',
      'charts',
    ]);
    expect(generatePaths('/', 'apps/web')).toEqual(['']);
  });

  it('a tag push concerns Applications on that tag or a semver range', () => {
    const tag = { ...push, ref: 'refs/tags/v1.4.0' };
    expect(pushConcerns(app('v1.4.0'), tag)).toBe(true);
    expect(pushConcerns(app('^1.0.0'), tag)).toBe(true);
    expect(pushConcerns(app('main'), tag)).toBe(false);
  });
});

describe('webhookSecretsOf', () => {
  it('takes WAVESYNC_WEBHOOK_* over wavesync.yaml secretEnv/secretFile, and names a missing one', async () => {
    const { webhookSecretsOf } = await import('./webhook-secrets.js');
    const file = path.join(fixtures, 'README.md');
    const env = { WAVESYNC_WEBHOOK_GITHUB_SECRET: 'from-env', MY_GITLAB: ' gl ' };
    const secrets = webhookSecretsOf(
      { github: { secretEnv: 'UNUSED' }, gitlab: { secretEnv: 'MY_GITLAB' }, gitea: { secretFile: file } },
      env,
    );
    expect(secrets.github).toBe('from-env');
    expect(secrets.gitlab).toBe('gl');
    expect(secrets.gitea).toBe(readFileSync(file, 'utf8').trim());
    expect(secrets.bitbucketUuid).toBeUndefined();
    expect(() => webhookSecretsOf({ gitlab: { secretEnv: 'NOPE' } }, {})).toThrow(
      'webhook.gitlab.secretEnv: variable NOPE is empty or unset',
    );
  });
});
