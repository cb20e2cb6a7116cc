/**
 * Parse Argo CD Application manifests (argoproj.io/v1alpha1, multi-document YAML or JSON) into `Application`s.
 * Honoured fields are validated and reported by name with file and line; unknown fields are kept in
 * `Application.manifest` and listed in `unknownFields` (the registry logs them at debug level); documents of other
 * kinds are skipped with a note.
 */
import { type Document, LineCounter, parseAllDocuments } from 'yaml';
import type { Application } from '../domain/application.js';
import type { KubeObject } from '../domain/resource.js';
import { describeIssues, formatKeyPath } from '../settings/yaml-issues.js';
import {
  type ApplicationManifest,
  ApplicationManifestSchema,
  StrictApplicationManifestSchema,
} from './application-schema.js';

export interface ParsedApplicationFile {
  applications: Application[];
  /** `file:line: message` for every invalid Application or YAML error; empty when all is well. */
  problems: string[];
  /** Per Application, the key paths wavesync does not interpret (kept, ignored). */
  unknownFields: { name: string; paths: string[] }[];
  /** Documents that are not Applications: `file:line: kind apiVersion/Kind skipped`. */
  skipped: string[];
}

/** The Application namespace Argo CD assumes when metadata.namespace is absent. */
export const DEFAULT_APPLICATION_NAMESPACE = 'argocd';

/** Parse every document of `text` (read from `file`, used in messages). Never throws; see `problems`. */
export function parseApplicationFile(text: string, file: string): ParsedApplicationFile {
  const result: ParsedApplicationFile = { applications: [], problems: [], unknownFields: [], skipped: [] };
  const lineCounter = new LineCounter();
  for (const doc of parseAllDocuments(text, { lineCounter })) {
    const line = lineCounter.linePos(doc.contents?.range[0] ?? doc.range[0]).line;
    if (doc.errors.length > 0) {
      for (const e of doc.errors)
        result.problems.push(`${file}:${e.linePos?.[0].line ?? line}: ${e.message.split('\n')[0]}`);
      continue;
    }
    const raw: unknown = doc.toJS();
    if (raw === null || raw === undefined) continue;
    if (!isApplicationDocument(raw)) {
      result.skipped.push(`${file}:${line}: ${describeKind(raw)} is not an Application; skipped`);
      continue;
    }
    parseOne(raw, doc, lineCounter, `${file}`, line, result);
  }
  return result;
}

function isApplicationDocument(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && (raw as { kind?: unknown }).kind === 'Application';
}

function describeKind(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return `a ${typeof raw} document`;
  const { apiVersion, kind } = raw as { apiVersion?: unknown; kind?: unknown };
  return `${String(apiVersion ?? '?')}/${String(kind ?? '?')}`;
}

function parseOne(
  raw: Record<string, unknown>,
  doc: Document,
  lineCounter: LineCounter,
  file: string,
  line: number,
  result: ParsedApplicationFile,
): void {
  const spec = raw.spec as Record<string, unknown> | undefined;
  if (spec && spec.sources !== undefined && spec.source === undefined) {
    result.problems.push(
      `${file}:${line}: spec.sources: multi-source Applications are not supported; use spec.source`,
    );
    return;
  }
  const parsed = ApplicationManifestSchema.safeParse(raw);
  if (!parsed.success) {
    result.problems.push(...describeIssues(parsed.error.issues, file, doc, lineCounter));
    return;
  }
  const application = toApplication(parsed.data, raw as KubeObject, `${file}:${line}`);
  result.applications.push(application);
  const strict = StrictApplicationManifestSchema.safeParse(raw);
  const paths = strict.success
    ? []
    : strict.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys' ? i.keys.map((k) => formatKeyPath([...i.path, k])) : [],
      );
  if (paths.length > 0) result.unknownFields.push({ name: application.name, paths });
}

function toApplication(manifest: ApplicationManifest, raw: KubeObject, origin: string): Application {
  const { metadata, spec } = manifest;
  return {
    name: metadata.name,
    namespace: metadata.namespace ?? DEFAULT_APPLICATION_NAMESPACE,
    project: spec.project ?? 'default',
    source: { ...spec.source, repoURL: spec.source.repoURL ?? '' },
    destination: spec.destination,
    ...(spec.syncPolicy === undefined ? {} : { syncPolicy: spec.syncPolicy }),
    finalizers: metadata.finalizers ?? [],
    labels: metadata.labels ?? {},
    annotations: metadata.annotations ?? {},
    manifest: raw,
    origin,
  };
}
