/**
 * Git hosts' push webhooks as Argo CD's `POST /api/webhook` reads them (util/webhook): which host sent it (by its
 * headers), whether it is genuine (each host's own scheme), and what moved — the repository's URLs, the ref, the
 * new commit, the files the pushed commits touched. Pure: no I/O.
 *
 * | host | event header | proof | delivery id |
 * |---|---|---|---|
 * | GitHub | `X-GitHub-Event: push` | `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>` | `X-GitHub-Delivery` |
 * | GitLab | `X-Gitlab-Event: Push Hook`/`Tag Push Hook` | `X-Gitlab-Token: <secret>` | `X-Gitlab-Event-UUID` |
 * | Bitbucket Cloud | `X-Event-Key: repo:push` | `X-Hook-UUID: <the webhook's UUID>` | `X-Request-UUID` |
 * | Bitbucket Server | `X-Event-Key: repo:refs_changed` | `X-Hub-Signature: sha256=<HMAC-SHA256>` | `X-Request-Id` |
 * | Gitea | `X-Gitea-Event: push` | `X-Gitea-Signature: <HMAC-SHA256 hex>` | `X-Gitea-Delivery` |
 * | Gogs | `X-Gogs-Event: push` | `X-Gogs-Signature: <HMAC-SHA256 hex>` | `X-Gogs-Delivery` |
 *
 * Gitea also sends GitHub's and Gogs' headers, so it is recognised first. Secrets are compared in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookProvider = 'GitHub' | 'GitLab' | 'Bitbucket' | 'Bitbucket Server' | 'Gitea' | 'Gogs';

/** The shared secrets, per host (Gitea and Gogs share one; Bitbucket Cloud's is the webhook's UUID). */
export interface WebhookSecrets {
  github?: string;
  gitlab?: string;
  bitbucketUuid?: string;
  bitbucketServer?: string;
  gitea?: string;
}

export type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** A recognised webhook: its host, event, delivery id, and which secret setting proves it. */
export interface WebhookEnvelope {
  provider: WebhookProvider;
  /** `push`, `ping`, or the host's other event name (ignored). */
  event: string;
  deliveryId: string | undefined;
  /** The setting that holds this host's secret, for messages (`WAVESYNC_WEBHOOK_GITHUB_SECRET`). */
  secretName: string;
}

/** What a push says moved. */
export interface PushEvent {
  provider: WebhookProvider;
  /** Every URL the payload gives for the repository (web, https clone, ssh clone). */
  repoURLs: string[];
  /** `refs/heads/main` or `refs/tags/v1.2.0`. */
  ref: string;
  /** The new commit (`after`), or undefined for a deleted ref. */
  after: string | undefined;
  /** The repository's default branch when the payload says (an Application tracking HEAD follows it). */
  defaultBranch: string | undefined;
  /** Files added, modified or removed by the pushed commits; undefined when the host does not say (Bitbucket). */
  changedFiles: string[] | undefined;
}

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** The host of a request by its headers, or undefined (not a webhook wavesync knows). */
export function envelopeOf(headers: Headers): WebhookEnvelope | undefined {
  const h = (name: string) => header(headers, name);
  if (h('x-gitea-event'))
    return {
      provider: 'Gitea',
      event: h('x-gitea-event')!,
      deliveryId: h('x-gitea-delivery'),
      secretName: GITEA,
    };
  if (h('x-gogs-event'))
    return {
      provider: 'Gogs',
      event: h('x-gogs-event')!,
      deliveryId: h('x-gogs-delivery'),
      secretName: GITEA,
    };
  if (h('x-github-event'))
    return {
      provider: 'GitHub',
      event: h('x-github-event')!,
      deliveryId: h('x-github-delivery'),
      secretName: 'WAVESYNC_WEBHOOK_GITHUB_SECRET (or webhook.github in wavesync.yaml)',
    };
  if (h('x-gitlab-event')) {
    const event = h('x-gitlab-event')!;
    return {
      provider: 'GitLab',
      event: event === 'Push Hook' || event === 'Tag Push Hook' ? 'push' : event,
      deliveryId: h('x-gitlab-event-uuid') ?? h('x-gitlab-webhook-uuid'),
      secretName: 'WAVESYNC_WEBHOOK_GITLAB_SECRET (or webhook.gitlab in wavesync.yaml)',
    };
  }
  const key = h('x-event-key');
  if (key && h('x-hook-uuid') !== undefined && !key.startsWith('diagnostics'))
    return {
      provider: 'Bitbucket',
      event: key === 'repo:push' ? 'push' : key,
      deliveryId: h('x-request-uuid'),
      secretName: 'WAVESYNC_WEBHOOK_BITBUCKET_UUID (or webhook.bitbucket in wavesync.yaml)',
    };
  if (key)
    return {
      provider: 'Bitbucket Server',
      event: key === 'repo:refs_changed' ? 'push' : key === 'diagnostics:ping' ? 'ping' : key,
      deliveryId: h('x-request-id'),
      secretName: 'WAVESYNC_WEBHOOK_BITBUCKET_SERVER_SECRET (or webhook.bitbucketServer in wavesync.yaml)',
    };
  return undefined;
}

const GITEA = 'WAVESYNC_WEBHOOK_GITEA_SECRET (or webhook.gitea in wavesync.yaml)';

/** The secret configured for `provider`, or undefined (its webhooks are refused). */
export function secretFor(secrets: WebhookSecrets, provider: WebhookProvider): string | undefined {
  switch (provider) {
    case 'GitHub':
      return secrets.github;
    case 'GitLab':
      return secrets.gitlab;
    case 'Bitbucket':
      return secrets.bitbucketUuid;
    case 'Bitbucket Server':
      return secrets.bitbucketServer;
    case 'Gitea':
    case 'Gogs':
      return secrets.gitea;
  }
}

/** Whether the request proves it knows `secret`, by the host's scheme (see the table above). */
export function verify(provider: WebhookProvider, headers: Headers, body: Buffer, secret: string): boolean {
  const hmac = () => createHmac('sha256', secret).update(body).digest('hex');
  switch (provider) {
    case 'GitHub':
      return same(header(headers, 'x-hub-signature-256'), `sha256=${hmac()}`);
    case 'Bitbucket Server':
      return same(header(headers, 'x-hub-signature'), `sha256=${hmac()}`);
    case 'Gitea':
      return same(header(headers, 'x-gitea-signature'), hmac());
    case 'Gogs':
      return same(header(headers, 'x-gogs-signature'), hmac());
    case 'GitLab':
      return same(header(headers, 'x-gitlab-token'), secret, true);
    case 'Bitbucket':
      return same(header(headers, 'x-hook-uuid')?.replace(/[{}]/g, ''), secret.replace(/[{}]/g, ''));
  }
}

/**
 * Constant-time comparison (of digests, so lengths never leak); hex digests and UUIDs ignore case, a token
 * (`exact`) does not.
 */
function same(given: string | undefined, expected: string, exact = false): boolean {
  if (given === undefined) return false;
  const fold = (v: string) => (exact ? v : v.toLowerCase());
  const a = createHash('sha256').update(fold(given.trim())).digest();
  const b = createHash('sha256').update(fold(expected)).digest();
  return timingSafeEqual(a, b);
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const ZERO = /^0+$/;

/**
 * The pushes a verified payload reports (Bitbucket may report several refs at once), or a problem. @throws
 * nothing: a payload that is not what its host documents gives `{ problem }`.
 */
export function pushesOf(provider: WebhookProvider, payload: unknown): PushEvent[] | { problem: string } {
  const p = obj(payload);
  switch (provider) {
    case 'GitHub':
    case 'Gitea':
    case 'Gogs': {
      const repo = obj(p.repository);
      const ref = str(p.ref);
      if (!ref) return { problem: 'the push has no ref' };
      return [
        {
          provider,
          repoURLs: urls(repo.html_url, repo.clone_url, repo.ssh_url, repo.git_url, repo.url),
          ref,
          after: commitOf(p.after),
          defaultBranch: str(repo.default_branch),
          changedFiles: filesOf(p.commits),
        },
      ];
    }
    case 'GitLab': {
      const project = obj(p.project);
      const repo = obj(p.repository);
      const ref = str(p.ref);
      if (!ref) return { problem: 'the push has no ref' };
      return [
        {
          provider,
          repoURLs: urls(
            project.web_url,
            project.git_http_url,
            project.git_ssh_url,
            repo.homepage,
            repo.git_http_url,
            repo.git_ssh_url,
            repo.url,
          ),
          ref,
          after: commitOf(p.checkout_sha ?? p.after),
          defaultBranch: str(project.default_branch),
          // GitLab lists at most 20 commits: with more, the files are not all known.
          changedFiles:
            typeof p.total_commits_count === 'number' && p.total_commits_count > arr(p.commits).length
              ? undefined
              : filesOf(p.commits),
        },
      ];
    }
    case 'Bitbucket': {
      const repo = obj(p.repository);
      const links = obj(repo.links);
      const html = str(obj(links.html).href);
      const full = str(repo.full_name);
      const repoURLs = urls(
        html,
        full && `https://bitbucket.org/${full}`,
        full && `git@bitbucket.org:${full}.git`,
      );
      return arr(obj(p.push).changes).flatMap((change) => {
        const next = obj(obj(change).new);
        const name = str(next.name);
        if (!name) return [];
        const ref = next.type === 'tag' ? `refs/tags/${name}` : `refs/heads/${name}`;
        return [
          {
            provider,
            repoURLs,
            ref,
            after: commitOf(obj(next.target).hash),
            defaultBranch: undefined,
            changedFiles: undefined,
          },
        ];
      });
    }
    case 'Bitbucket Server': {
      const repo = obj(p.repository);
      const repoURLs = urls(...arr(obj(repo.links).clone).map((c) => obj(c).href));
      return arr(p.changes).flatMap((change) => {
        const c = obj(change);
        const ref = str(obj(c.ref).id) ?? str(c.refId);
        if (!ref) return [];
        return [
          {
            provider,
            repoURLs,
            ref,
            after: commitOf(c.toHash),
            defaultBranch: undefined,
            changedFiles: undefined,
          },
        ];
      });
    }
  }
}

function urls(...values: unknown[]): string[] {
  return [...new Set(values.flatMap((v) => (str(v) ? [v as string] : [])))];
}

function commitOf(value: unknown): string | undefined {
  const sha = str(value);
  return sha && /^[0-9a-f]{40}$/i.test(sha) && !ZERO.test(sha) ? sha.toLowerCase() : undefined;
}

function filesOf(commits: unknown): string[] | undefined {
  const list = arr(commits);
  if (list.length === 0) return undefined;
  const files = new Set<string>();
  for (const commit of list) {
    const c = obj(commit);
    for (const f of [...arr(c.added), ...arr(c.modified), ...arr(c.removed)])
      if (str(f)) files.add(f as string);
  }
  return [...files];
}
