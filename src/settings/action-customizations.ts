/**
 * Resource-action customizations written as in Argo CD's `argocd-cm` (argo-cd `ResourceOverride.Actions`, a YAML
 * string): `resource.customizations.actions.<group>_<Kind>` or the `actions` field of a `resource.customizations`
 * block entry, each
 *
 *   discovery.lua: |        # which actions an object offers
 *   definitions:            # one per action
 *     - name: restart
 *       action.lua: |
 *   mergeBuiltinActions: true   # also offer the built-in actions (the override's win by name)
 *
 * Every other field is refused by name.
 */
import { parse } from 'yaml';

export interface ActionsOverrideSetting {
  /** `<group>/<Kind>` or `<Kind>` for the core group. */
  key: string;
  discoveryLua: string;
  definitions: { name: string; actionLua: string }[];
  mergeBuiltinActions: boolean;
}

type Problems = { key: string; message: string }[];

function readDefinitions(
  value: unknown,
  where: string,
  problems: Problems,
): ActionsOverrideSetting['definitions'] {
  if (!Array.isArray(value)) {
    problems.push({ key: `${where}.definitions`, message: 'must be a list of {name, action.lua}' });
    return [];
  }
  const definitions: ActionsOverrideSetting['definitions'] = [];
  value.forEach((item: unknown, i) => {
    const at = `${where}.definitions[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push({ key: at, message: 'must be a mapping (name, action.lua)' });
      return;
    }
    const { name, 'action.lua': actionLua, ...rest } = item as Record<string, unknown>;
    for (const field of Object.keys(rest))
      problems.push({ key: `${at}.${field}`, message: 'unknown key (name, action.lua)' });
    if (typeof name !== 'string' || name === '')
      problems.push({ key: `${at}.name`, message: 'must be a non-empty string' });
    else if (typeof actionLua !== 'string')
      problems.push({ key: `${at}.action.lua`, message: 'must be a string' });
    else definitions.push({ name, actionLua });
  });
  return definitions;
}

/** Reads one actions customization (a YAML string) for `key`; problems are named by `where`. */
export function readActionsCustomization(
  key: string,
  text: unknown,
  where: string,
  problems: Problems,
): ActionsOverrideSetting | undefined {
  if (typeof text !== 'string') {
    problems.push({
      key: where,
      message: 'must be a YAML string (discovery.lua, definitions, mergeBuiltinActions)',
    });
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (err) {
    problems.push({ key: where, message: `not YAML: ${(err as Error).message.split('\n')[0]}` });
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push({
      key: where,
      message: 'must be a YAML mapping (discovery.lua, definitions, mergeBuiltinActions)',
    });
    return undefined;
  }
  const out: ActionsOverrideSetting = { key, discoveryLua: '', definitions: [], mergeBuiltinActions: false };
  for (const [field, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (field === 'discovery.lua' && typeof value === 'string') out.discoveryLua = value;
    else if (field === 'definitions') out.definitions = readDefinitions(value, where, problems);
    else if (field === 'mergeBuiltinActions' && typeof value === 'boolean') out.mergeBuiltinActions = value;
    else if (field === 'discovery.lua' || field === 'mergeBuiltinActions') {
      problems.push({
        key: `${where}.${field}`,
        message: `must be a ${field === 'discovery.lua' ? 'string' : 'boolean'}`,
      });
    } else {
      problems.push({
        key: `${where}.${field}`,
        message: 'unknown key (discovery.lua, definitions, mergeBuiltinActions)',
      });
    }
  }
  return out;
}
