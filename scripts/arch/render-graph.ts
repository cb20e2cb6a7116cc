/**
 * Markdown for a folder graph: a Mermaid flowchart (GitHub renders ```mermaid blocks) and a plain table with
 * the columns folder, files, imports. Pure.
 */
import type { FolderNode } from './folder-graph.js';

/**
 * A Mermaid `flowchart TD` block: one node per folder, an arrow from each folder to the folders it imports. A
 * folder that every other folder imports (the domain) is drawn without its arrows, labelled "imported by all".
 */
export function renderMermaid(folders: readonly FolderNode[]): string {
  const names = [...new Set(folders.flatMap((folder) => [folder.name, ...folder.imports]))].sort();
  const everywhere = new Set(
    names.filter(
      (name) => folders.length > 2 && folders.every((f) => f.name === name || f.imports.includes(name)),
    ),
  );
  const lines = ['```mermaid', 'flowchart TD'];
  for (const name of names) {
    lines.push(`  ${nodeId(name)}["${name}${everywhere.has(name) ? ' (imported by all)' : ''}"]`);
  }
  for (const folder of folders) {
    const targets = folder.imports.filter((name) => !everywhere.has(name));
    if (targets.length > 0) lines.push(`  ${nodeId(folder.name)} --> ${targets.map(nodeId).join(' & ')}`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** A Mermaid node id from a folder name (`app-of-apps/` → `n_app_of_apps`, `*.ts` → `n_ts`). */
function nodeId(name: string): string {
  return `n_${name.replace(/\W+/g, '_').replace(/^_+|_+$/g, '')}`;
}

/** A Markdown table, columns padded to line up; imports as `` `name` ``, `—` for none. */
export function renderTable(folders: readonly FolderNode[]): string {
  const rows = folders.map((folder) => [
    `\`${folder.name}\``,
    String(folder.files),
    folder.imports.map((name) => `\`${name}\``).join(', ') || '—',
  ]);
  return alignedTable(['folder', 'files', 'imports'], rows);
}

function alignedTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, 3, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
