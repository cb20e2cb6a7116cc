/**
 * The sync options Argo CD knows (docs user-guide/sync-options.md, gitops-engine `pkg/sync/common/types.go`),
 * for warnings: Argo CD matches options as exact `Key=value` strings, so a misspelling (`Prune=flase`,
 * `CreateNamespce=true`) silently does nothing. wavesync keeps that behaviour and says so, with the closest valid
 * option.
 */
import { closestNames, didYouMean } from '../closest-names.js';

/** Every option key with the values Argo CD acts on (a value not listed here is never matched). */
const SYNC_OPTION_VALUES: Readonly<Record<string, readonly string[]>> = {
  ApplyOutOfSyncOnly: ['true', 'false'],
  ClientSideApplyMigration: ['true', 'false'],
  CreateNamespace: ['true', 'false'],
  Delete: ['true', 'false', 'confirm'],
  FailOnSharedResource: ['true', 'false'],
  Force: ['true', 'false'],
  Prune: ['true', 'false', 'confirm'],
  PruneLast: ['true', 'false'],
  PrunePropagationPolicy: ['foreground', 'background', 'orphan'],
  Replace: ['true', 'false'],
  RespectIgnoreDifferences: ['true', 'false'],
  ServerSideApply: ['true', 'false'],
  SkipDryRunOnMissingResource: ['true', 'false'],
  Validate: ['true', 'false'],
};

const KNOWN_OPTIONS: readonly string[] = Object.entries(SYNC_OPTION_VALUES).flatMap(([key, values]) =>
  values.map((value) => `${key}=${value}`),
);

/**
 * The problem with one sync option, or undefined when Argo CD knows it:
 * `unknown sync option "Prune=flase" (did you mean Prune=false?); Argo CD ignores it`.
 */
export function syncOptionProblem(option: string): string | undefined {
  const [key = '', value] = option.split('=', 2);
  const values = SYNC_OPTION_VALUES[key];
  if (values !== undefined && value !== undefined && values.includes(value)) return undefined;
  // PrunePropagationPolicy is the one option Argo CD reads case-insensitively.
  if (key === 'PrunePropagationPolicy' && values?.includes(value?.toLowerCase() ?? '')) return undefined;
  if (values === undefined) {
    return `unknown sync option "${option}"${didYouMean(option, KNOWN_OPTIONS)}; Argo CD ignores it`;
  }
  const closest = closestNames(value ?? '', values, 1)[0];
  const hint = closest
    ? `did you mean ${key}=${closest}?`
    : `valid: ${values.map((v) => `${key}=${v}`).join(', ')}`;
  return `unknown sync option "${option}" (${hint}); Argo CD ignores it`;
}
