/**
 * loadKubeConfig — the KubeConfig for a CLI or worker: an explicit file, else client-node's default chain
 * (`$KUBECONFIG`, `~/.kube/config`, in-cluster service account); optionally switching to a named context.
 * A user's token file is read as kubectl reads it: under the key `tokenFile` (kubectl's spelling; client-node only
 * knows `token-file`) or `token-file`, relative to the kubeconfig's folder, its content trimmed of white space
 * (client-go `strings.TrimSpace`); an inline `token` takes precedence, as in client-go.
 * Throws BotError('invalid_config') naming the file, the unreadable token file or the unknown context.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { BotError } from '../domain/index.js';
import { KubeConfig, type User } from './client-node.js';

export interface KubeConfigSource {
  /** Path of a kubeconfig file. */
  kubeconfig?: string;
  /** Context to use instead of the file's current-context. */
  context?: string;
}

export function loadKubeConfig(source: KubeConfigSource = {}): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (source.kubeconfig) kc.loadFromFile(source.kubeconfig);
    else kc.loadFromDefault();
  } catch (error) {
    const where = source.kubeconfig ?? 'the default kubeconfig';
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new BotError(
      'invalid_config',
      missing
        ? `kubeconfig not found (${where})`
        : `cannot load the kubeconfig (${where}): ${(error as Error).message}`,
      {
        cause: error,
        fix: missing
          ? 'check the path given to --kubeconfig or $KUBECONFIG (`kubectl config view` shows what kubectl uses)'
          : 'fix the file: `kubectl config view --kubeconfig <file>` shows what kubectl makes of it',
      },
    );
  }
  readTokenFiles(kc, kubeconfigFiles(source));
  if (source.context) {
    if (!kc.getContextObject(source.context)) {
      const known = kc.getContexts().map((c) => c.name);
      throw new BotError(
        'invalid_config',
        `no context "${source.context}" in kubeconfig (has: ${known.join(', ')})`,
      );
    }
    kc.setCurrentContext(source.context);
  }
  if (!kc.getCurrentCluster()) throw new BotError('invalid_config', 'the kubeconfig has no current cluster');
  if (!source.kubeconfig && isClientNodeFallback(kc)) {
    throw new BotError(
      'invalid_config',
      'no kubeconfig found ($KUBECONFIG is not set, ~/.kube/config does not exist, not running in a cluster)',
      {
        fix:
          'pass --kubeconfig <file> or set KUBECONFIG; to try wavesync without a cluster, start one with ' +
          '`wavesync cluster-sim --kubeconfig-out ./kubeconfig` and pass --kubeconfig ./kubeconfig',
      },
    );
  }
  return kc;
}

/** The kubeconfig files loaded: the explicit one, else $KUBECONFIG's list, else ~/.kube/config. */
function kubeconfigFiles(source: KubeConfigSource): string[] {
  if (source.kubeconfig) return [source.kubeconfig];
  const list = process.env.KUBECONFIG;
  if (list) return list.split(path.delimiter).filter((f) => f !== '');
  return [path.join(process.env.HOME || homedir(), '.kube', 'config')];
}

/** `tokenFile` / `token-file` of each user without an inline token, by user name (first file wins, as merged). */
function tokenFilesOf(files: string[]): Map<string, { tokenFile: string; kubeconfig: string }> {
  const found = new Map<string, { tokenFile: string; kubeconfig: string }>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // client-node skipped or already reported it
    }
    if (!mayNameTokenFile(text)) continue;
    for (const doc of parseAllDocuments(text)) {
      const users = (doc.toJS() as { users?: unknown } | null)?.users;
      if (!Array.isArray(users)) continue;
      for (const entry of users as { name?: unknown; user?: Record<string, unknown> }[]) {
        const name = entry?.name;
        const user = entry?.user ?? {};
        const tokenFile = user.tokenFile ?? user['token-file'];
        if (typeof name !== 'string' || found.has(name) || user.token || typeof tokenFile !== 'string')
          continue;
        found.set(name, { tokenFile: path.resolve(path.dirname(file), tokenFile), kubeconfig: file });
      }
    }
  }
  return found;
}

/**
 * False when no key of `text` can be `tokenFile` or `token-file`, so the YAML need not be parsed a second time
 * (client-node has parsed it; the `yaml` parser's first document costs ~10 ms of a CLI start). A YAML key spells its
 * characters out (plain, single-quoted, block, an anchor's text) unless a double-quoted scalar escapes them, which
 * takes a backslash: without either name and without a backslash, no user has such a key.
 */
function mayNameTokenFile(text: string): boolean {
  return text.includes('tokenFile') || text.includes('token-file') || text.includes('\\');
}

/** Sets each such user's token to its token file's trimmed content. */
function readTokenFiles(kc: KubeConfig, files: string[]): void {
  const tokenFiles = tokenFilesOf(files);
  if (tokenFiles.size === 0) return;
  kc.users = kc.users.map((user): User => {
    const source = tokenFiles.get(user.name);
    if (source === undefined) return user;
    try {
      return { ...user, token: readFileSync(source.tokenFile, 'utf8').trim() };
    } catch (error) {
      throw new BotError(
        'invalid_config',
        `cannot read the token file of user "${user.name}" (${source.tokenFile}, from ${source.kubeconfig}): ${(error as Error).message}`,
        { cause: error, fix: 'check the path under users[].user.tokenFile and that the file is readable' },
      );
    }
  });
}

/**
 * True for what client-node's loadFromDefault builds when it finds no kubeconfig and no service account: a
 * cluster named "cluster" at http://localhost:8080 with a user named "user" and no credentials (client-node 1.x
 * config.js). Every request to it fails with "HTTP protocol is not allowed when skipTLSVerify is not set".
 */
function isClientNodeFallback(kc: KubeConfig): boolean {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  return (
    kc.getClusters().length === 1 &&
    cluster?.name === 'cluster' &&
    cluster.server === 'http://localhost:8080' &&
    user?.name === 'user' &&
    !user.token &&
    !user.certData &&
    !user.exec
  );
}

/** The namespace of the current context, or `default`. */
export function contextNamespaceOf(kc: KubeConfig): string {
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}
