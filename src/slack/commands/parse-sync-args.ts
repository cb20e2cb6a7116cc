/**
 * Parses the text after `/sync <app>`: `[--revision REV] [--prune] [--dry-run] [--resource GROUP:KIND:NAME]…
 * [--break-glass "reason"]` with node's `util.parseArgs` (strict). Slack clients may turn `--` into an em or en
 * dash and quotes into curly quotes; both are read as typed. Returns the SyncOperation (and the break-glass
 * reason), or a problem phrased for the user with the right form.
 */
import { parseArgs } from 'node:util';
import type { SyncOperation, SyncOperationResource } from '../../domain/index.js';
import { closestNames } from '../../engine/index.js';
import type { CommandProblem } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { FLAGS_TEXT, USAGE } from '../messages/help-blocks.js';

export type ParsedSync =
  | { ok: true; operation: SyncOperation; breakGlassReason?: string }
  | { ok: false; problem: CommandProblem };

const FLAGS = ['--revision', '--prune', '--dry-run', '--resource', '--break-glass'];
const OPTIONS = {
  revision: { type: 'string' },
  prune: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  resource: { type: 'string', multiple: true },
  'break-glass': { type: 'string' },
} as const;

/**
 * Split command text into words. "Double", “curly” or 'single' quotes group words (quotes removed); smart
 * dashes (—, –) at the start of a word become `--`.
 */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|\u201c([^\u201d]*)\u201d|'([^']*)'|(\S+)/g)) {
    const quoted = m[1] ?? m[2] ?? m[3];
    words.push(quoted ?? (m[4] ?? '').replace(/^[\u2014\u2013]/, '--'));
  }
  return words;
}

/** Parse the flags that follow the application name. */
export function parseSyncArgs(args: readonly string[]): ParsedSync {
  let values: {
    revision?: string;
    prune?: boolean;
    'dry-run'?: boolean;
    resource?: string[];
    'break-glass'?: string;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    return { ok: false, problem: flagProblem(err as Error & { code?: string }) };
  }
  if (positionals.length > 0) {
    const extra = escapeMrkdwn(positionals.join(' '));
    return fail(`Unexpected \`${extra}\`: /sync takes one application and flags.`);
  }
  if (values.revision !== undefined && !isRevision(values.revision)) {
    return fail(`\`${escapeMrkdwn(values.revision)}\` is not a branch, tag or commit.`);
  }
  const resources: SyncOperationResource[] = [];
  for (const spec of values.resource ?? []) {
    const resource = parseResource(spec);
    if (!resource) {
      const shown = spec.length > 80 ? `${spec.slice(0, 80)}… (${spec.length} characters)` : spec;
      return fail(
        `Bad --resource \`${escapeMrkdwn(shown)}\`: use GROUP:KIND:NAME or GROUP:KIND:NAMESPACE/NAME with Kubernetes names (a name is at most 253 lowercase letters, digits, \`-\` and \`.\`), e.g. \`apps:Deployment:web\` or \`:Service:web\` for the core group.`,
      );
    }
    resources.push(resource);
  }
  const operation: SyncOperation = {
    prune: values.prune ?? false,
    dryRun: values['dry-run'] ?? false,
    syncOptions: [],
    ...(values.revision !== undefined ? { revision: values.revision } : {}),
    ...(resources.length ? { resources } : {}),
  };
  const reason = breakGlassReasonOf(values['break-glass'], 'hotfix for INC-42');
  if (typeof reason === 'object') return fail(reason.problem);
  return { ok: true, operation, ...(reason ? { breakGlassReason: reason } : {}) };
}

/**
 * Longest `--break-glass` reason, in characters. The reason travels in button values (Slack: ≤ 2000 characters
 * per value), the approval message and the audit log; a ticket reference and a sentence fit easily.
 */
const MAX_BREAK_GLASS_REASON = 300;

/**
 * The trimmed `--break-glass` value: undefined when the flag is absent, else the reason, or a problem for an
 * empty or over-long reason (`example` shows the form in the message).
 */
export function breakGlassReasonOf(
  raw: string | undefined,
  example: string,
): string | undefined | { problem: string } {
  if (raw === undefined) return undefined;
  const reason = raw.trim();
  if (!reason) return { problem: `--break-glass needs a reason, e.g. \`--break-glass "${example}"\`.` };
  if (reason.length > MAX_BREAK_GLASS_REASON) {
    return {
      problem: `The --break-glass reason is ${reason.length} characters; keep it to ${MAX_BREAK_GLASS_REASON} (a ticket and a sentence).`,
    };
  }
  return reason;
}

/** Longest `--resource` value read (group 253 + kind 63 + namespace 63 + name 253 and separators). */
const MAX_RESOURCE_SPEC = 640;
/** A DNS-1123 subdomain (Kubernetes object names, API groups): ≤ 253, lowercase alphanumerics, `-` and `.`. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A DNS-1123 label (namespaces): ≤ 63, lowercase alphanumerics and `-`. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A Kind: CamelCase, starting with a capital (`Deployment`, `CronJob`), ≤ 63. */
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/**
 * `GROUP:KIND:NAME` or `GROUP:KIND:NAMESPACE/NAME` (Argo CD CLI `--resource` form), each part checked as
 * Kubernetes checks it: GROUP empty (core) or a DNS subdomain ≤ 253, KIND CamelCase ≤ 63, NAMESPACE a DNS label
 * ≤ 63, NAME a DNS subdomain ≤ 253. Undefined if malformed.
 */
export function parseResource(spec: string): SyncOperationResource | undefined {
  if (spec.length > MAX_RESOURCE_SPEC) return undefined;
  const parts = spec.split(':');
  if (parts.length !== 3) return undefined;
  const [group, kind, rest] = parts as [string, string, string];
  const slash = rest.indexOf('/');
  const name = slash < 0 ? rest : rest.slice(slash + 1);
  const namespace = slash < 0 ? undefined : rest.slice(0, slash);
  if (!KIND.test(kind) || kind.length > 63) return undefined;
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253) return undefined;
  if (namespace !== undefined && (!DNS_LABEL.test(namespace) || namespace.length > 63)) return undefined;
  if (group !== '' && (!DNS_SUBDOMAIN.test(group) || group.length > 253)) return undefined;
  return { group, kind, name, ...(namespace ? { namespace } : {}) };
}

/** A git ref or SHA as `git check-ref-format` would accept it (no spaces, `..`, `~^:?*[\`, leading `-`). */
function isRevision(rev: string): boolean {
  return (
    /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(rev) &&
    !rev.includes('..') &&
    !rev.endsWith('.lock') &&
    rev.length <= 250
  );
}

function flagProblem(err: Error & { code?: string }): CommandProblem {
  const flag = /'(-[^' ]+)/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const suggestion = closestNames(flag.split('=')[0]!, FLAGS, 1)[0];
    const hint = suggestion ? ` Did you mean ${suggestion}?` : '';
    return {
      problem: `Unknown flag \`${escapeMrkdwn(flag)}\`.${hint} Flags: ${FLAGS_TEXT}`,
      usage: USAGE.sync,
    };
  }
  if (
    err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' &&
    err.message.includes('does not take an argument')
  ) {
    return { problem: `${flag} takes no value.`, usage: USAGE.sync };
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = flag.replace(/ <value>$/, '') || 'that flag';
    return {
      problem: `${name} needs a value${name === '--revision' ? ', e.g. `--revision main`' : ''}.`,
      usage: USAGE.sync,
    };
  }
  return { problem: escapeMrkdwn(err.message), usage: USAGE.sync };
}

function fail(problem: string): ParsedSync {
  return { ok: false, problem: { problem, usage: USAGE.sync } };
}
