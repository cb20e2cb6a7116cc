/**
 * Check an ApplicationSet document against the schema: every problem named by key path and line
 * (`file:line: spec.generators[0].list.elemnts: unknown key`), or the manifest.
 */
import type { Document, LineCounter } from 'yaml';
import { describeIssues, lineOfPath } from '../../settings/index.js';
import { type ApplicationSetManifest, ApplicationSetSchema } from './applicationset-schema.js';

export interface ApplicationSetDocument {
  manifest: ApplicationSetManifest;
  file: string;
  line: number;
  /**
   * The line of a key path in the document (`spec.template.spec.source.path`, `spec.generators[0].list`), or of its
   * deepest existing ancestor: template and generator errors name the offending line, not the document's first.
   */
  lineOf?(path: string): number | undefined;
}

/** `spec.generators[0].list` → `['spec', 'generators', 0, 'list']`. */
function keyPathOf(path: string): (string | number)[] {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
    m[2] === undefined ? (m[1] as string) : Number(m[2]),
  );
}

export function isApplicationSetDocument(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && (raw as { kind?: unknown }).kind === 'ApplicationSet';
}

/** The manifest, or the problems (`file:line: path: message`). */
export function checkApplicationSet(
  raw: unknown,
  doc: Document,
  lineCounter: LineCounter,
  file: string,
  line: number,
): { set: ApplicationSetDocument; problems?: undefined } | { problems: string[]; set?: undefined } {
  const parsed = ApplicationSetSchema.safeParse(raw);
  if (parsed.success) {
    const lineOf = (path: string) => lineOfPath(doc, lineCounter, keyPathOf(path));
    return { set: { manifest: parsed.data, file, line, lineOf } };
  }
  return {
    problems: describeIssues(parsed.error.issues, file, doc, lineCounter).map((p) =>
      p.includes(': ') ? p.replace(/^([^ ]*?): /, `$1: ApplicationSet: `) : p,
    ),
  };
}
