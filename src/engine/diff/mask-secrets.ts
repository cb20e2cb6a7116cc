/**
 * Secret values never leave the diff: Argo CD's `HideSecretData` (util/diff `HideSecretData`) replaces every
 * value of a Secret's `data` and `stringData` with `+` characters — the same number for equal values and a
 * different number for each distinct value of a key, so a changed value still shows as a changed line but
 * neither value can be read. `stringData` is first folded into `data` (what the API server does on write), so a
 * manifest's `stringData.X` and the live `data.X` compare as one key. Only the key names are reported.
 */
import type { KubeObject } from '../../domain/index.js';

/** True for a core-group Secret. */
function isSecret(obj: KubeObject | undefined): boolean {
  return (
    obj !== undefined && obj.kind === 'Secret' && (obj.apiVersion === 'v1' || !obj.apiVersion.includes('/'))
  );
}

function dataOf(obj: KubeObject | undefined): Record<string, string> | undefined {
  if (obj === undefined) return undefined;
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries((obj.data as Record<string, unknown> | undefined) ?? {})) {
    data[key] = String(value);
  }
  for (const [key, value] of Object.entries((obj.stringData as Record<string, unknown> | undefined) ?? {})) {
    data[key] = Buffer.from(String(value), 'utf8').toString('base64');
  }
  return data;
}

function withData(
  obj: KubeObject | undefined,
  data: Record<string, string> | undefined,
): KubeObject | undefined {
  if (obj === undefined || data === undefined) return obj;
  const { data: _data, stringData: _stringData, ...rest } = obj;
  return Object.keys(data).length === 0 ? (rest as KubeObject) : ({ ...rest, data } as KubeObject);
}

export interface MaskedPair {
  live: KubeObject | undefined;
  target: KubeObject | undefined;
  /** Keys added, removed or changed between live and target (sorted); [] for anything but Secrets. */
  changedKeys: string[];
}

/**
 * Masks the values of a Secret pair (either side may be absent); objects of other kinds come back unchanged.
 * Both inputs should already be normalised (the last-applied annotation, which may hold values, dropped).
 */
export function maskSecretPair(live: KubeObject | undefined, target: KubeObject | undefined): MaskedPair {
  if (!isSecret(live) && !isSecret(target)) return { live, target, changedKeys: [] };
  const liveData = dataOf(live);
  const targetData = dataOf(target);
  const keys = [...new Set([...Object.keys(liveData ?? {}), ...Object.keys(targetData ?? {})])].sort();
  const maskedLive: Record<string, string> = {};
  const maskedTarget: Record<string, string> = {};
  const changedKeys: string[] = [];
  for (const key of keys) {
    const before = liveData?.[key];
    const after = targetData?.[key];
    const distinct = [...new Set([before, after].filter((v): v is string => v !== undefined))];
    const mask = (value: string) => '+'.repeat(8 + distinct.indexOf(value));
    if (before !== undefined) maskedLive[key] = mask(before);
    if (after !== undefined) maskedTarget[key] = mask(after);
    if (live !== undefined && target !== undefined && before !== after) changedKeys.push(key);
  }
  return {
    live: withData(live, liveData && maskedLive),
    target: withData(target, targetData && maskedTarget),
    changedKeys,
  };
}
