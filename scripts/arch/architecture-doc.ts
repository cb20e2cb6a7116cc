/**
 * The generated parts of docs/architecture.md: between `<!-- arch:<name> begin … -->` and `<!-- arch:<name> end -->`
 * markers, `src-folders` (which src/ folder imports which) and `engine-folders` (the engine's internal folder
 * graph, `engine/index.ts` — the public face — left out). Each is a Mermaid flowchart and a table. Pure: it takes
 * the cruised modules and returns the new text.
 */
import {
  type CruisedModule,
  type FolderOf,
  folderCycles,
  folderGraphOf,
  folderUnder,
} from './folder-graph.js';
import { renderMermaid, renderTable } from './render-graph.js';

/** src/ folders; an import of a local folder outside src/ (the simulator) reads `../sim/`. */
const srcFolderOf = folderUnder('src/');
const srcTargetOf: FolderOf = (path) =>
  srcFolderOf(path) ??
  (/^[^./][^/]*\//.test(path) ? `../${path.slice(0, path.indexOf('/') + 1)}` : undefined);

const engineFolderOf = folderUnder('src/engine/');
const engineInsideOf: FolderOf = (path) =>
  path === 'src/engine/index.ts' ? undefined : engineFolderOf(path);

/** The section's body: the flowchart, then the table. */
function sectionBody(modules: readonly CruisedModule[], name: string): string {
  const folders =
    name === 'src-folders'
      ? folderGraphOf(modules, srcFolderOf, srcTargetOf)
      : folderGraphOf(modules, engineInsideOf);
  return `${renderMermaid(folders)}\n\n${renderTable(folders)}`;
}

export const SECTIONS = ['src-folders', 'engine-folders'] as const;

/**
 * `doc` with every generated section rewritten from `modules`; `stale` names the sections whose text changed.
 * Throws an Error naming the missing markers when a section has none.
 */
export function updateArchitectureDoc(
  doc: string,
  modules: readonly CruisedModule[],
): { text: string; stale: string[] } {
  let text = doc;
  const stale: string[] = [];
  for (const name of SECTIONS) {
    const markers = new RegExp(`(<!-- arch:${name} begin[^>]*-->\\n)([\\s\\S]*?)(<!-- arch:${name} end -->)`);
    const found = markers.exec(text);
    if (found === null) {
      throw new Error(
        `no "<!-- arch:${name} begin … -->" … "<!-- arch:${name} end -->" markers in the document`,
      );
    }
    const body = `${sectionBody(modules, name)}\n`;
    if (found[2] !== body) stale.push(name);
    text = text.replace(markers, (_, begin: string, _old: string, end: string) => `${begin}${body}${end}`);
  }
  return { text, stale };
}

/** The cycles between src/ folders (each as folder names, first = last); empty when they form a DAG. */
export function srcFolderCycles(modules: readonly CruisedModule[]): string[][] {
  return folderCycles(folderGraphOf(modules, srcFolderOf, srcTargetOf));
}
