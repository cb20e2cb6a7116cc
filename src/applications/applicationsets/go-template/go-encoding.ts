/**
 * Go's encodings as ApplicationSet templates see them: encoding/json's Marshal (`toJson`, `toPrettyJson`,
 * `toRawJson`) and sigs.k8s.io/yaml's (`toYaml`), both with sorted map keys.
 */
import { stringify as stringifyYaml } from 'yaml';
import { isMap, toPlain } from './go-value.js';

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isMap(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  }
  return value;
}

/** Go's json.Marshal: sorted map keys, `<`, `>`, `&` escaped. */
export function goJson(value: unknown, indent = 0): string {
  return (JSON.stringify(sortKeys(toPlain(value)), null, indent) ?? 'null')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

/** sigs.k8s.io/yaml Marshal (sorted keys, sequences not indented) with the trailing newline trimmed. */
export function goYaml(value: unknown): string {
  const plain = sortKeys(toPlain(value));
  return stringifyYaml(plain, { indentSeq: false, lineWidth: 0 }).replace(/\n$/, '');
}
