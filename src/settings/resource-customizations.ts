/**
 * Health customizations written as in Argo CD's `argocd-cm` ConfigMap (argo-cd `util/settings/settings.go`,
 * GetResourceOverrides), so a team's data carries over unchanged:
 * - the `resource.customizations` block: YAML keyed by `<group>/<Kind>` (or `<Kind>` for the core group; globs
 *   such as `*.crossplane.io/*`), each with `health.lua` and `health.lua.useOpenLibs`;
 * - split keys, read after the block and winning over it: `resource.customizations.health.<group>_<Kind>` (the
 *   script) and `resource.customizations.useOpenLibs.<group>_<Kind>` (`true`/`false`); `<Kind>` alone for the
 *   core group; `all` means `*` + `/` + `*`.
 * Resource actions (`resource.customizations.actions.<group>_<Kind>`, a block entry's `actions`) are read by
 * action-customizations.ts. The other customizations (`ignoreDifferences`, `ignoreResourceUpdates`,
 * `knownTypeFields`) and every other argocd-cm key are refused by name: wavesync does not apply them.
 */
import { parse } from 'yaml';
import { type ActionsOverrideSetting, readActionsCustomization } from './action-customizations.js';

/** One `<group>/<Kind>` (or glob) key's health override. */
export interface HealthOverrideSetting {
  /** `cert-manager.io/Certificate`, `ConfigMap` (core group), or a glob (`*.crossplane.io/*`). */
  key: string;
  /** The Lua script; '' when only useOpenLibs was given (Argo CD then ignores the entry for health). */
  healthLua: string;
  useOpenLibs: boolean;
}

const BLOCK_KEY = 'resource.customizations';
const NOT_APPLIED = ['ignoreDifferences', 'ignoreResourceUpdates', 'knownTypeFields'];

/** Argo CD's convertToOverrideKey: `group_Kind` → `group/Kind`, `Kind` stays, `all` → every kind. */
function overrideKey(groupKind: string): string | undefined {
  const parts = groupKind.split('_');
  const key =
    parts.length === 2
      ? `${parts[0]}/${parts[1]}`
      : parts.length === 1 && groupKind !== ''
        ? groupKind
        : undefined;
  return key === 'all' ? '*/*' : key;
}

function parseBool(value: string): boolean | undefined {
  // Go's strconv.ParseBool
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** Reads the health overrides of argocd-cm `data`; every problem is a message naming the key (empty = none). */
export function parseResourceCustomizations(data: Readonly<Record<string, string>>): {
  overrides: HealthOverrideSetting[];
  actions: ActionsOverrideSetting[];
  problems: { key: string; message: string }[];
} {
  const byKey = new Map<string, HealthOverrideSetting>();
  const actions = new Map<string, ActionsOverrideSetting>();
  const addActions = (target: string, value: unknown, where: string) => {
    const read = readActionsCustomization(target, value, where, problems);
    if (read) actions.set(target, read);
  };
  const problems: { key: string; message: string }[] = [];
  const entry = (key: string) => {
    let found = byKey.get(key);
    if (!found) {
      found = { key, healthLua: '', useOpenLibs: false };
      byKey.set(key, found);
    }
    return found;
  };
  const block = data[BLOCK_KEY];
  if (block !== undefined && block !== '') readBlock(block, entry, addActions, problems);
  for (const [key, value] of Object.entries(data)) {
    if (key === BLOCK_KEY) continue;
    if (!key.startsWith(`${BLOCK_KEY}.`)) {
      problems.push({
        key,
        message: `not a resource customization: wavesync reads only the ${BLOCK_KEY} keys of argocd-cm (remove it)`,
      });
      continue;
    }
    const parts = key.split('.');
    const type = parts[2] ?? '';
    const target = overrideKey(parts.slice(3).join('.'));
    if (target === undefined) {
      problems.push({
        key,
        message: `group kind should be in format ${BLOCK_KEY}.<type>.<group_kind> or ${BLOCK_KEY}.<type>.<kind>`,
      });
      continue;
    }
    if (type === 'health') entry(target).healthLua = value;
    else if (type === 'useOpenLibs') {
      const flag = parseBool(value);
      if (flag === undefined) problems.push({ key, message: `must be true or false, not "${value}"` });
      else entry(target).useOpenLibs = flag;
    } else if (type === 'actions') addActions(target, value, key);
    else if (NOT_APPLIED.includes(type)) {
      problems.push({
        key,
        message: `${type} customizations are not applied by wavesync (only health and actions); remove it`,
      });
    } else {
      problems.push({
        key,
        message: `resource customization type ${type} not supported (health, useOpenLibs, actions)`,
      });
    }
  }
  return { overrides: [...byKey.values()], actions: [...actions.values()], problems };
}

function readBlock(
  text: string,
  entry: (key: string) => HealthOverrideSetting,
  addActions: (key: string, value: unknown, where: string) => void,
  problems: { key: string; message: string }[],
): void {
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (err) {
    problems.push({ key: BLOCK_KEY, message: `not YAML: ${(err as Error).message.split('\n')[0]}` });
    return;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push({ key: BLOCK_KEY, message: 'must be a YAML mapping of <group>/<Kind> to customizations' });
    return;
  }
  for (const [groupKind, value] of Object.entries(parsed)) {
    const where = `${BLOCK_KEY}: ${groupKind}`;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problems.push({
        key: where,
        message: 'must be a mapping (health.lua, health.lua.useOpenLibs, actions)',
      });
      continue;
    }
    for (const [field, fieldValue] of Object.entries(value as Record<string, unknown>)) {
      if (field === 'health.lua' && typeof fieldValue === 'string') entry(groupKind).healthLua = fieldValue;
      else if (field === 'health.lua.useOpenLibs' && typeof fieldValue === 'boolean') {
        entry(groupKind).useOpenLibs = fieldValue;
      } else if (field === 'health.lua' || field === 'health.lua.useOpenLibs') {
        problems.push({
          key: `${where}.${field}`,
          message: `must be a ${field === 'health.lua' ? 'string' : 'boolean'}`,
        });
      } else if (field === 'actions') addActions(groupKind, fieldValue, `${where}.actions`);
      else if (NOT_APPLIED.includes(field)) {
        problems.push({
          key: `${where}.${field}`,
          message: `${field} is not applied by wavesync (only health and actions); remove it`,
        });
      } else {
        problems.push({
          key: `${where}.${field}`,
          message: 'unknown key (health.lua, health.lua.useOpenLibs, actions)',
        });
      }
    }
  }
}
