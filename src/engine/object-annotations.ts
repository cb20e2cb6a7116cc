/**
 * Annotation readers shared by the hook, wave and phase rules.
 * Source: Argo CD gitops-engine `pkg/sync/resource/annotations.go` (GetAnnotationCSVs, HasAnnotationOption).
 */
import type { KubeObject } from '../domain/index.js';

/** The raw value of one annotation, or undefined when the key is absent (values are strings, see loader). */
export function annotationOf(obj: KubeObject, key: string): string | undefined {
  const value = obj.metadata.annotations?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** True when the annotation key is present, whatever its value. */
export function hasAnnotation(obj: KubeObject, key: string): boolean {
  const annotations = obj.metadata.annotations;
  return annotations !== undefined && Object.hasOwn(annotations, key);
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * Comma-separated values of an annotation: split on `,`, each item trimmed, empty items dropped, duplicates
 * removed keeping first-seen order (gitops-engine v3.5.1). Absent annotation → [].
 */
export function annotationCsvOf(obj: KubeObject, key: string): readonly string[] {
  const raw = annotationOf(obj, key);
  if (raw === undefined) return NONE;
  const items: string[] = [];
  for (const part of raw.split(',')) {
    const item = part.trim();
    if (item !== '' && !items.includes(item)) items.push(item);
  }
  return items;
}

/** True when the comma-separated annotation contains `option` exactly (e.g. `PruneLast=true`). */
export function hasAnnotationOption(obj: KubeObject, key: string, option: string): boolean {
  return annotationCsvOf(obj, key).includes(option);
}
