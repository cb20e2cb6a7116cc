/**
 * What Argo CD makes of a resource-action script's result (argo-cd `util/lua/lua.go`, ExecuteResourceAction and
 * ExecuteResourceActionDiscovery; `impacted_resource.go`):
 * - discovery returns a table of action name → `{disabled, iconClass, displayName, params = {{name, type, value,
 *   default}, …}}` (an empty table means an action without any of these; a table with nothing in it, no actions);
 *   an action is enabled unless `disabled` is the boolean true;
 * - an action returns either the modified object (an "old-style" action, a patch of the object) or a list of
 *   operations `{operation = "patch" | "create", resource = {…}}` ("new-style"); any other operation is an error;
 * - a patched object is repaired where Lua cannot tell an empty map from an empty list (cleanReturnedObj: an empty
 *   list where the live object had a map is the map again).
 */
import type { Json } from './lua-json.js';

export type JsonObject = { [key: string]: Json };

interface ResourceActionParam {
  name: string;
  value?: string;
  type?: string;
  default?: string;
}

/** One action discovery offers (Argo CD's ResourceAction). */
export interface ResourceAction {
  name: string;
  disabled: boolean;
  iconClass?: string;
  displayName?: string;
  params?: ResourceActionParam[];
}

type ActionOperation = 'patch' | 'create';

/** One object an action changes (Argo CD's ImpactedResource). */
export interface ImpactedResource {
  operation: ActionOperation;
  resource: JsonObject;
}

export class ActionResultError extends Error {
  override name = 'ActionResultError';
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: Json | undefined, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ActionResultError(`${where} must be a string`);
  return value;
}

function readParams(value: Json | undefined, action: string): ResourceActionParam[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ActionResultError(`action ${action}: params must be a list`);
  return value.map((param, i) => {
    const where = `action ${action}: params[${i + 1}]`;
    if (!isJsonObject(param)) throw new ActionResultError(`${where} must be a table`);
    const name = optionalString(param.name, `${where}.name`) ?? '';
    const out: ResourceActionParam = { name };
    for (const field of ['value', 'type', 'default'] as const) {
      const text = optionalString(param[field], `${where}.${field}`);
      if (text !== undefined) out[field] = text;
    }
    return out;
  });
}

/** The actions a discovery script's result offers, sorted by name. */
export function readDiscoveryResult(result: Json): ResourceAction[] {
  if (Array.isArray(result) && result.length === 0) return [];
  if (!isJsonObject(result)) {
    throw new ActionResultError(
      `expect table output from Lua script, not ${result === null ? 'nil' : Array.isArray(result) ? 'a list' : typeof result}`,
    );
  }
  const actions: ResourceAction[] = [];
  for (const [name, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.length === 0) {
      actions.push({ name, disabled: false });
      continue;
    }
    if (!isJsonObject(value)) throw new ActionResultError(`action ${name}: expected a table`);
    const action: ResourceAction = { name, disabled: value.disabled === true };
    const iconClass = optionalString(value.iconClass, `action ${name}: iconClass`);
    const displayName = optionalString(value.displayName, `action ${name}: displayName`);
    const params = readParams(value.params, name);
    if (iconClass !== undefined) action.iconClass = iconClass;
    if (displayName !== undefined) action.displayName = displayName;
    if (params !== undefined) action.params = params;
    actions.push(action);
  }
  return actions.sort((a, b) => a.name.localeCompare(b.name));
}

/** Argo CD's cleanReturnedObj: an empty list where the live object has a map becomes that map again. */
function cleanReturnedObject(changed: JsonObject, live: JsonObject): JsonObject {
  for (const [key, before] of Object.entries(live)) {
    const after = changed[key];
    if (isJsonObject(after) && isJsonObject(before)) changed[key] = cleanReturnedObject(after, before);
    else if (Array.isArray(after)) {
      if (isJsonObject(before) && after.length === 0) changed[key] = before;
      else if (Array.isArray(before)) changed[key] = cleanReturnedList(after, before);
    }
  }
  return changed;
}

function cleanReturnedList(changed: Json[], live: Json[]): Json[] {
  changed.forEach((after, i) => {
    const before = live[i];
    if (isJsonObject(after) && isJsonObject(before)) changed[i] = cleanReturnedObject(after, before);
    else if (Array.isArray(after) && Array.isArray(before)) changed[i] = cleanReturnedList(after, before);
  });
  return changed;
}

function asResource(value: Json | undefined, where: string): JsonObject {
  if (!isJsonObject(value)) throw new ActionResultError(`${where}: the resource must be an object`);
  return value;
}

/** The objects an action's result changes; `live` is the object the action ran on. */
export function readActionResult(result: Json, live: JsonObject): ImpactedResource[] {
  if (Array.isArray(result)) {
    return result.map((item, i) => {
      const where = `operation ${i + 1}`;
      if (!isJsonObject(item)) throw new ActionResultError(`${where}: expected {operation, resource}`);
      const { operation } = item;
      if (operation !== 'patch' && operation !== 'create') {
        throw new ActionResultError(`unsupported operation: ${JSON.stringify(operation ?? null)}`);
      }
      const resource = asResource(item.resource, where);
      return { operation, resource: operation === 'patch' ? cleanReturnedObject(resource, live) : resource };
    });
  }
  if (!isJsonObject(result)) {
    throw new ActionResultError(
      `expect table output from Lua script, not ${result === null ? 'nil' : typeof result}`,
    );
  }
  return [{ operation: 'patch', resource: cleanReturnedObject(result, live) }];
}
