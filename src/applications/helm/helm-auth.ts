/**
 * What a Helm chart repository or OCI registry is asked with: the wavesync.yaml `helmCredentials` entry whose `url`
 * is the longest prefix of the repository URL, its password read from the environment or a file, its TLS files
 * read. Secrets never appear in messages.
 */
import { readFileSync } from 'node:fs';
import { BotError } from '../../domain/index.js';
import type { HelmCredential } from '../../settings/index.js';
import type { HttpTls } from './http-get.js';

export interface HelmAuth {
  /** `Basic …` when the credential has a user and password. */
  basic?: string;
  tls: HttpTls;
  /** Plain HTTP to an OCI registry (`insecureOCIForceHttp`). */
  plainHttp: boolean;
}

/** The credential whose `url` is the longest prefix of `repoURL`, if any. */
export function helmCredentialFor(
  repoURL: string,
  credentials: readonly HelmCredential[],
): HelmCredential | undefined {
  return credentials.filter((c) => repoURL.startsWith(c.url)).sort((a, b) => b.url.length - a.url.length)[0];
}

/**
 * @throws BotError('invalid_config') naming the variable or file (never the secret) that is unset, empty or
 *   unreadable.
 */
export function helmAuthFor(
  credential: HelmCredential | undefined,
  env: Readonly<Record<string, string | undefined>>,
): HelmAuth {
  if (!credential) return { tls: { rejectUnauthorized: true }, plainHttp: false };
  const where = `helm credential for ${credential.url}`;
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new BotError('invalid_config', `${where}: cannot read ${what} ${file}`, { cause: error });
    }
  };
  const tls: HttpTls = { rejectUnauthorized: !credential.insecure };
  if (credential.caFile !== undefined) tls.ca = read(credential.caFile, 'caFile');
  if (credential.certFile !== undefined) tls.cert = read(credential.certFile, 'certFile');
  if (credential.keyFile !== undefined) tls.key = read(credential.keyFile, 'keyFile');
  const auth: HelmAuth = { tls, plainHttp: credential.insecureOCIForceHttp };
  if (credential.username !== undefined) {
    const password =
      credential.passwordEnv !== undefined
        ? env[credential.passwordEnv]?.trim()
        : read(credential.passwordFile ?? '', 'passwordFile').trim();
    if (!password) {
      const from =
        credential.passwordEnv !== undefined
          ? `variable ${credential.passwordEnv}`
          : `file ${credential.passwordFile}`;
      throw new BotError('invalid_config', `${where}: ${from} is empty or unset`);
    }
    auth.basic = `Basic ${Buffer.from(`${credential.username}:${password}`).toString('base64')}`;
  }
  return auth;
}
