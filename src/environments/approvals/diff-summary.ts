/**
 * DiffSummary — the part of a live diff an approval request keeps (in Redis, with the request) and shows inline:
 * the counts, the first changed resources with their first changed fields, and the diff's fingerprint (to tell
 * at decision time whether the live state or the manifests changed since). Built from the engine's masked diff:
 * Secret values never reach it; a Secret's data shows as "changed key NAME".
 */
import {
  type ApplicationDiff,
  type DiffAction,
  type DiffCounts,
  ITEMS_PER_YIELD,
  isSecretDiff,
  type ResourceDiff,
  runAtOnce,
  type SlicedWork,
} from '../../engine/index.js';

interface DiffSummaryEntry {
  /** `Kind/name` (namespace left out: the destination's is the rule). */
  resource: string;
  action: DiffAction;
  /** `spec.replicas: 2 → 3`, `changed key DB_PASSWORD`, … (first few only). */
  fields: string[];
  /** Changed fields not listed. */
  moreFields: number;
}

export interface DiffSummary {
  counts: DiffCounts;
  /** SHA-256 of the whole masked diff (ApplicationDiff.fingerprint). */
  fingerprint: string;
  /** Resources that change, in sync order (first MAX_ENTRIES). */
  entries: DiffSummaryEntry[];
  /** Changing resources not listed. */
  moreEntries: number;
  /** ignoreDifferences options not honoured, dry-run problems (one line each, first few). */
  warnings: string[];
}

const MAX_ENTRIES = 8;
const MAX_FIELDS = 3;
const MAX_WARNINGS = 3;

/** Field lines of one resource: Secret data as key names only. */
function fieldLinesOf(r: ResourceDiff): string[] {
  if (r.action !== 'change') return [];
  const secret = isSecretDiff(r);
  const fields = r.fields
    .filter((f) => !(secret && /^(data|stringData)\b/.test(f.path)))
    .map((f) => `${f.path}: ${f.live} → ${f.desired}`);
  return [...(secret ? r.secretKeysChanged.map((k) => `changed key ${k}`) : []), ...fields];
}

/** The summary of `diff` (see the file comment). */
export function summarizeDiff(diff: ApplicationDiff): DiffSummary {
  return runAtOnce(diffSummaryWork(diff));
}

/**
 * summarizeDiff as SlicedWork (for TimeSlice.run on the bot's thread): at 50,000 resources its two passes were
 * ~50 ms of CPU in one piece.
 */
export function* diffSummaryWork(diff: ApplicationDiff): SlicedWork<DiffSummary> {
  const changing: ResourceDiff[] = [];
  const notes: string[] = [];
  let count = 0;
  for (const r of diff.resources) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    if (r.action !== 'unchanged' && r.action !== 'prune-skipped') changing.push(r);
    if (r.note) notes.push(`${r.kind}/${r.name}: ${r.note}`);
  }
  const entries = changing.slice(0, MAX_ENTRIES).map((r) => {
    const lines = fieldLinesOf(r);
    return {
      resource: `${r.kind}/${r.name}`,
      action: r.action,
      fields: lines.slice(0, MAX_FIELDS),
      moreFields: Math.max(0, lines.length - MAX_FIELDS),
    };
  });
  return {
    counts: diff.counts,
    fingerprint: diff.fingerprint,
    entries,
    moreEntries: changing.length - entries.length,
    warnings: [...diff.warnings, ...notes].slice(0, MAX_WARNINGS),
  };
}
