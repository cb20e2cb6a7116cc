/**
 * Parse Argo CD Application manifests (argoproj.io/v1alpha1, multi-document YAML or JSON) into `Application`s.
 * Honoured fields are validated and reported by name with file and line; unknown fields are kept in
 * `Application.manifest` and listed in `unknownFields` (application-fields.ts names them in warnings); documents of other
 * kinds are skipped with a note.
 */
import { type Document, LineCounter, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import type { Application, KubeObject } from '../domain/index.js';
import { ManifestError } from '../domain/index.js';
import { describeIssues, formatKeyPath } from '../settings/index.js';
import { checkApplicationFields } from './application-fields.js';
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
  const checked = checkApplication(raw);
  if (checked.problem !== undefined) return void result.problems.push(`${file}:${line}: ${checked.problem}`);
  if (!checked.manifest)
    return void result.problems.push(...describeIssues(checked.issues, file, doc, lineCounter));
  const application = toApplication(checked.manifest, raw as KubeObject, `${file}:${line}`);
  result.applications.push(application);
  if (checked.unknownFields.length > 0)
    result.unknownFields.push({ name: application.name, paths: checked.unknownFields });
}

interface CheckedApplication {
  manifest?: ApplicationManifest;
  /** A problem of the whole object (not tied to one key). */
  problem?: string;
  issues: z.core.$ZodIssue[];
  unknownFields: string[];
}

function checkApplication(raw: Record<string, unknown>): CheckedApplication {
  const spec = raw.spec as Record<string, unknown> | undefined;
  if (spec && spec.sources !== undefined && spec.source === undefined) {
    return {
      problem: 'spec.sources: multi-source Applications are not supported; use spec.source',
      issues: [],
      unknownFields: [],
    };
  }
  const refused = checkApplicationFields(raw).refused;
  if (refused.length > 0) {
    const problem = refused.map((r) => `${r.path}: ${r.message}`).join('; ');
    return { problem, issues: [], unknownFields: [] };
  }
  const parsed = ApplicationManifestSchema.safeParse(raw);
  if (!parsed.success) return { issues: parsed.error.issues, unknownFields: [] };
  const strict = StrictApplicationManifestSchema.safeParse(raw);
  const unknownFields = strict.success
    ? []
    : strict.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys' ? i.keys.map((k) => formatKeyPath([...i.path, k])) : [],
      );
  return { manifest: parsed.data, issues: [], unknownFields };
}

/**
 * An Application from an object already in memory (a rendered manifest of an App of Apps parent, a live object).
 * @throws ManifestError at `source` naming every invalid field.
 */
export function applicationFromObject(raw: KubeObject, source: { file: string; line: number }): Application {
  const checked = checkApplication(raw);
  const problems =
    checked.problem !== undefined
      ? [checked.problem]
      : checked.issues.map(
          (i) => `${formatKeyPath(i.path)}: ${i.code === 'unrecognized_keys' ? 'unknown key' : i.message}`,
        );
  if (!checked.manifest || problems.length > 0) {
    throw new ManifestError(source.file, source.line, `invalid Application: ${problems.join('; ')}`);
  }
  return toApplication(checked.manifest, raw, `${source.file}:${source.line}`);
}

function toApplication(manifest: ApplicationManifest, raw: KubeObject, origin: string): Application {
  const { metadata, spec } = manifest;
  return {
    name: metadata.name,
    namespace: metadata.namespace ?? DEFAULT_APPLICATION_NAMESPACE,
    project: spec.project ?? 'default',
    source: { ...spec.source, repoURL: spec.source.repoURL ?? '' },
    destination: spec.destination,
    ...(spec.syncPolicy === undefined ? {} : { syncPolicy: withoutDisabledAutomation(spec.syncPolicy) }),
    ...(spec.revisionHistoryLimit === undefined ? {} : { revisionHistoryLimit: spec.revisionHistoryLimit }),
    finalizers: metadata.finalizers ?? [],
    labels: metadata.labels ?? {},
    annotations: metadata.annotations ?? {},
    manifest: raw,
    origin,
  };
}

/** `automated.enabled: false` turns automated sync off (Argo CD 3.x): wavesync then sees no `automated` at all. */
function withoutDisabledAutomation(policy: NonNullable<ApplicationManifest['spec']['syncPolicy']>) {
  if (policy.automated?.enabled !== false) return policy;
  const { automated: _off, ...rest } = policy;
  return rest;
}
