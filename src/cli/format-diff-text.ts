/**
 * The text of `wavesync diff`: a header with the counts, then per resource that changes a `===== kind
 * namespace/name (action) =====` line and its unified YAML diff (`-` live, `+` after the sync), Secret keys named
 * without values, notes, the hooks that would run and the warnings. With `color`, removed lines are red, added
 * green and hunk headers cyan (ANSI SGR), as `argocd app diff` / `git diff` colour them.
 */
import { displayRevision } from '../domain/index.js';
import { type ApplicationDiff, formatDiffCounts, type ResourceDiff } from '../engine/index.js';

const RED = '\u001b[31m';
const GREEN = '\u001b[32m';
const CYAN = '\u001b[36m';
const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

function paint(line: string, color: boolean): string {
  if (!color) return line;
  if (line.startsWith('+++') || line.startsWith('---')) return `${BOLD}${line}${RESET}`;
  if (line.startsWith('@@')) return `${CYAN}${line}${RESET}`;
  if (line.startsWith('+')) return `${GREEN}${line}${RESET}`;
  if (line.startsWith('-')) return `${RED}${line}${RESET}`;
  return line;
}

/** `apps/Deployment prod/web`. */
function resourceLabel(r: Pick<ResourceDiff, 'group' | 'kind' | 'namespace' | 'name'>): string {
  return `${r.group ? `${r.group}/` : ''}${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
}

/** The whole text (ends with a newline). */
export function formatDiffText(diff: ApplicationDiff, options: { color: boolean }): string {
  const out: string[] = [
    `${diff.application} · revision ${displayRevision(diff.revision, diff.ref)} · ${formatDiffCounts(diff.counts)}`,
  ];
  for (const r of diff.resources) {
    if (r.action === 'unchanged') continue;
    out.push('', paint(`===== ${resourceLabel(r)} (${r.action}) =====`, false));
    if (r.secretKeysChanged.length > 0) {
      out.push(`Secret keys changed (values hidden): ${r.secretKeysChanged.join(', ')}`);
    }
    if (r.note) out.push(`note: ${r.note}`);
    for (const line of r.diff.split('\n')) if (line !== '') out.push(paint(line, options.color));
  }
  if (diff.hooks.length > 0) {
    out.push('', 'Hooks that will run:');
    for (const h of diff.hooks) out.push(`  ${h.phase}: ${h.kind}/${h.name}`);
  }
  if (diff.warnings.length > 0) {
    out.push('', 'Warnings:');
    for (const w of diff.warnings) out.push(`  ${w}`);
  }
  return `${out.join('\n')}\n`;
}
