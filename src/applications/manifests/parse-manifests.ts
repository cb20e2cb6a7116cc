/**
 * parseManifests — Kubernetes objects from one YAML (or JSON) text, with the line each one starts on.
 * Multi-document YAML via the `yaml` package (its `Parser` and `Composer`, as `parseAllDocuments` uses them, with a
 * `LineCounter`); every document's errors are checked; empty and comment-only documents are skipped; `List` objects
 * (`kind: List`, or any `*List` with an `items` array) are expanded into their items. Documents are composed one at
 * a time and dropped once converted: `parseAllDocuments` holds the syntax tree of every document until the last is
 * parsed (about 4 KB per small object: 40 MB for a 10,000-object file). `parseManifestsSliced` yields to the event
 * loop between documents, so a 20,000-object file does not stall the process for a second or more.
 */
import {
  Composer,
  type Document,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  Parser,
  type Range,
  type ScalarTag,
  type Tags,
} from 'yaml';
import { ManifestError } from '../../domain/index.js';
import type { PlanWarning, SourcedObject, TimeSlice } from '../../engine/index.js';
import { kubeObjectOf, type Locator } from './kube-object-of.js';

export interface ParsedManifests {
  objects: SourcedObject[];
  warnings: PlanWarning[];
}

/**
 * Parses `text` read from `file` (the name used in errors). Throws ManifestError with file and 1-based line for
 * YAML syntax errors and for documents that are not valid Kubernetes objects.
 */
export function parseManifests(text: string, file: string): ParsedManifests {
  const result: ParsedManifests = { objects: [], warnings: [] };
  for (const parsed of documentsOf(text, file)) addTo(result, parsed);
  return result;
}

export interface SlicedParseOptions {
  /** Yields to the event loop between documents once a slice is used up; rejects when its signal aborts. */
  slice: TimeSlice;
  /**
   * Told the objects of each document as it is parsed; answers whether to keep them (false: the caller only
   * counts from now on — an Application over its object limit is counted to the end without holding its objects).
   */
  accept?: (objects: number) => boolean;
}

/**
 * parseManifests in time slices: the same objects and errors, but a large file does not block the event loop
 * (documents are composed one at a time, and the loop yields between them once `slice` is due). A single huge
 * document is still parsed in one go.
 */
export async function parseManifestsSliced(
  text: string,
  file: string,
  options: SlicedParseOptions,
): Promise<ParsedManifests> {
  const result: ParsedManifests = { objects: [], warnings: [] };
  for (const parsed of documentsOf(text, file)) {
    if (options.accept?.(parsed.objects.length) ?? true) addTo(result, parsed);
    if (options.slice.due()) await options.slice.pause();
  }
  return result;
}

function addTo(result: ParsedManifests, parsed: ParsedManifests): void {
  for (const object of parsed.objects) result.objects.push(object);
  for (const warning of parsed.warnings) result.warnings.push(warning);
}

/**
 * Every document of `text` on its own: its objects and warnings, or the ManifestError that makes it no valid
 * object (YAML syntax, a duplicate key, a missing metadata.name; file and line), going on with the next document.
 * For tools that judge each document (`wavesync health`); a sync refuses the whole file (parseManifests).
 */
export function parseManifestsEach(text: string, file: string): (ParsedManifests | ManifestError)[] {
  return [...documentOutcomesOf(text, file)];
}

/** The objects and warnings of each document of `text`, one document at a time; throws at the first bad one. */
function* documentsOf(text: string, file: string): Generator<ParsedManifests> {
  for (const outcome of documentOutcomesOf(text, file)) {
    if (outcome instanceof ManifestError) throw outcome;
    yield outcome;
  }
}

/**
 * YAML as Kubernetes and Argo CD read a manifest: sigs.k8s.io/yaml converts YAML to JSON through go-yaml v2, which
 * resolves plain scalars by YAML 1.1's rules — `yes`/`no`/`on`/`off`/`y`/`n` are booleans, `0644` is octal (420),
 * `0b1010` binary, `1_000` an integer, and `<<` merges a mapping. What go-yaml v2 does not resolve stays a string, as
 * there: sexagesimal numbers (`8080:80`, which YAML 1.1 would make 483,680) and timestamps (`2024-01-01`). YAML 1.2
 * (the `yaml` package's default) reads `0644` as 644 and `yes` as a string, so a `defaultMode: 0644` would reach the
 * API server as an invalid mode and an unquoted `yes` would pass where kubectl and Argo CD fail.
 */
const MANIFEST_YAML = {
  version: '1.1',
  customTags: (tags: Tags) => [...tags.filter((tag) => !unresolvedByGoYamlV2(tag)), goBasePrefixInt],
} as const;

/**
 * go-yaml v2 reads an integer with Go's `strconv.ParseInt(s, 0, 64)` (underscores removed first), which also takes
 * the prefixes YAML 1.1 lacks: `0o17`, `0O17`, `0X1F`, `0B101`.
 */
const goBasePrefixInt: ScalarTag = {
  identify: (value) => typeof value === 'number',
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: /^[-+]?0(?:[oO][0-7_]+|X[0-9a-fA-F_]+|B[01_]+)$/,
  resolve(source: string) {
    const negative = source.startsWith('-');
    const digits = source.replace(/^[-+]/, '').replaceAll('_', '');
    const base = { o: 8, x: 16, b: 2 }[digits[1]!.toLowerCase() as 'o' | 'x' | 'b'];
    const value = Number.parseInt(digits.slice(2), base);
    return negative ? -value : value;
  },
};

function unresolvedByGoYamlV2(tag: Tags[number]): boolean {
  if (typeof tag !== 'object') return false;
  return tag.format === 'TIME' || tag.tag === 'tag:yaml.org,2002:timestamp';
}

function* documentOutcomesOf(text: string, file: string): Generator<ParsedManifests | ManifestError> {
  const lineCounter = new LineCounter();
  const docs = new Composer(MANIFEST_YAML).compose(new Parser(lineCounter.addNewLine).parse(text));
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0].line ?? lineCounter.linePos(error.pos[0]).line;
      yield new ManifestError(file, line, `YAML syntax error: ${firstLine(error.message)}`, {
        cause: error,
        fix: 'fix the YAML at that line (indentation, quotes, brackets)',
      });
      continue;
    }
    const warnings = doc.warnings.map((warning) => ({
      file,
      line: warning.linePos?.[0].line ?? lineCounter.linePos(warning.pos[0]).line,
      message: `YAML: ${firstLine(warning.message)}`,
    }));
    let objects: SourcedObject[];
    try {
      const value: unknown = doc.contents === null ? null : doc.toJS();
      objects = value === null || value === undefined ? [] : objectsOf(value, doc, file, lineCounter);
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      yield err;
      continue;
    }
    if (objects.length > 0 || warnings.length > 0) yield { objects, warnings };
  }
}

function objectsOf(value: unknown, doc: Document, file: string, lc: LineCounter): SourcedObject[] {
  const at = locator(doc, [], file, lc);
  const items = listItemsOf(value);
  if (items === undefined) return [{ object: kubeObjectOf(value, at), source: { file, line: at.line } }];
  return items.map((item, i) => {
    const itemAt = locator(doc, ['items', i], file, lc);
    return { object: kubeObjectOf(item, itemAt), source: { file, line: itemAt.line } };
  });
}

function listItemsOf(value: unknown): unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, items } = value as { kind?: unknown; items?: unknown };
  if (typeof kind !== 'string' || !kind.endsWith('List') || !Array.isArray(items)) return undefined;
  return items;
}

/** Line lookups inside one document (or one List item, `base` = ['items', i]). */
function locator(doc: Document, base: Path, file: string, lc: LineCounter): Locator {
  const lineAt = (path: Path): number | undefined => {
    const offset = nodeAt(doc, path)?.range?.[0];
    return offset === undefined ? undefined : lc.linePos(offset).line;
  };
  const line = lineAt(base) ?? 1;
  const lineOf = (path: readonly string[]): number => {
    const full = [...base, ...path];
    for (let n = full.length; n >= base.length; n--) {
      const found = lineAt(full.slice(0, n));
      if (found !== undefined) return found;
    }
    return line;
  };
  return { file, line, lineOf };
}

type Path = readonly (string | number)[];

/** The node at `path`: for a mapping entry its key (where the entry starts), for a sequence entry the item. */
function nodeAt(doc: Document, path: Path): { range?: Range | null } | undefined {
  if (path.length === 0) return doc.contents ?? undefined;
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  const last = path[path.length - 1];
  if (isMap(parent)) {
    const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === last);
    return isNode(pair?.key) ? pair.key : undefined;
  }
  if (isSeq(parent) && typeof last === 'number') {
    const item = parent.items[last];
    return isNode(item) ? item : undefined;
  }
  return undefined;
}

/**
 * The first line of a `yaml` message without its own position (` at line 5, column 1:` — the caller names file and
 * line) or a trailing colon that introduced the source excerpt.
 */
function firstLine(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '');
}
