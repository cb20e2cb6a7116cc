/**
 * Git credentials from wavesync.yaml, handed to git as configuration through the environment
 * (GIT_CONFIG_COUNT/KEY_n/VALUE_n, git ≥ 2.31) so they never appear in a remote URL, on the command line
 * (`ps`), in `.git/config`, in logs or in error messages.
 */
import { readFileSync } from 'node:fs';
import { BotError } from '../../domain/index.js';
import type { GitCredential } from '../../settings/index.js';

/** The credential whose `url` is the longest prefix of `repoURL`, if any. */
export function gitCredentialFor(
  repoURL: string,
  credentials: readonly GitCredential[],
): GitCredential | undefined {
  return credentials.filter((c) => repoURL.startsWith(c.url)).sort((a, b) => b.url.length - a.url.length)[0];
}

/** A git config entry passed through the environment, and the secrets it carries (for scrubbing output). */
export interface GitAuth {
  config: { key: string; value: string }[];
  secrets: string[];
}

/**
 * The git configuration that authenticates `credential`: an `http.extraHeader` Basic authorization for tokens,
 * `core.sshCommand` with the key file for SSH. `env` supplies `tokenEnv` variables.
 * @throws BotError('invalid_config') naming the variable or file (never the secret) when it is empty or unreadable.
 */
export function gitAuthFor(
  credential: GitCredential,
  env: Readonly<Record<string, string | undefined>>,
): GitAuth {
  if (credential.sshKeyFile !== undefined) {
    const command = `ssh -i '${credential.sshKeyFile.replaceAll("'", "'\\''")}' -o IdentitiesOnly=yes -o BatchMode=yes`;
    return { config: [{ key: 'core.sshCommand', value: command }], secrets: [] };
  }
  const token = readToken(credential, env);
  const basic = Buffer.from(`${credential.username}:${token}`).toString('base64');
  return {
    config: [{ key: 'http.extraHeader', value: `Authorization: Basic ${basic}` }],
    secrets: [token, basic],
  };
}

function readToken(credential: GitCredential, env: Readonly<Record<string, string | undefined>>): string {
  if (credential.tokenEnv !== undefined) {
    const value = env[credential.tokenEnv]?.trim();
    if (!value) {
      throw new BotError(
        'invalid_config',
        `git credential for ${credential.url}: variable ${credential.tokenEnv} is empty or unset`,
      );
    }
    return value;
  }
  const file = credential.tokenFile ?? '';
  let value: string;
  try {
    value = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new BotError(
      'invalid_config',
      `git credential for ${credential.url}: cannot read token file ${file}`,
      { cause: error },
    );
  }
  if (!value)
    throw new BotError('invalid_config', `git credential for ${credential.url}: token file ${file} is empty`);
  return value;
}

/** Environment entries that give git the config of `auth` (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n). */
export function gitConfigEnv(auth: GitAuth): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(auth.config.length) };
  auth.config.forEach((entry, i) => {
    env[`GIT_CONFIG_KEY_${i}`] = entry.key;
    env[`GIT_CONFIG_VALUE_${i}`] = entry.value;
  });
  return env;
}

/** `https://user:secret@host/x` → `https://host/x`; anything that is not a URL is returned unchanged. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Replace every occurrence of each secret in `text` with `[Redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[Redacted]');
  return out;
}
