/**
 * The folder graph of a source tree, from dependency-cruiser's JSON output (`depcruise src --output-type json`):
 * per folder, its files and the folders it imports. Pure: the caller runs the cruise.
 */
import type { IDependency, IModule } from 'dependency-cruiser';

/** The part of a cruised module the graph reads (dependency-cruiser's IModule fits). */
export type CruisedModule = Pick<IModule, 'source'> & {
  dependencies: readonly (Pick<IDependency, 'resolved'> & { dependencyTypes: readonly string[] })[];
};

/** A file path → the name of its folder in the graph, or undefined to leave the file out. */
export type FolderOf = (path: string) => string | undefined;

/** A folder of `root` as `name/`, or `*.ts` for a file directly in `root`; undefined outside `root`. */
export function folderUnder(root: string): FolderOf {
  return (path) => {
    if (!path.startsWith(root)) return undefined;
    const rest = path.slice(root.length);
    const slash = rest.indexOf('/');
    return slash < 0 ? '*.ts' : rest.slice(0, slash + 1);
  };
}

export interface FolderNode {
  /** The folder's name, e.g. `src/engine/`. */
  name: string;
  /** Files in the folder (only the cruised ones: tests are excluded by the cruise's config). */
  files: number;
  /** Imported folder names, other folders only, sorted. Not counted: the doc must not go stale on every edit. */
  imports: readonly string[];
}

/**
 * The folders of `modules` (as `folderOf` names them), sorted by name. `targetOf` names the folder of an
 * imported file (default `folderOf`), so a graph may show imports of folders whose own files it does not count;
 * only local imports (dependency-cruiser type `local`) count, never npm packages or node built-ins.
 */
export function folderGraphOf(
  modules: readonly CruisedModule[],
  folderOf: FolderOf,
  targetOf: FolderOf = folderOf,
): FolderNode[] {
  const nodes = new Map<string, { files: number; imports: Set<string> }>();
  for (const module of modules) {
    const name = folderOf(module.source);
    if (name === undefined) continue;
    const node = nodes.get(name) ?? { files: 0, imports: new Set<string>() };
    nodes.set(name, node);
    node.files += 1;
    for (const dependency of module.dependencies) {
      if (!dependency.dependencyTypes.includes('local')) continue;
      const target = targetOf(dependency.resolved);
      if (target === undefined || target === name) continue;
      node.imports.add(target);
    }
  }
  return [...nodes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, node]) => ({
      name,
      files: node.files,
      imports: [...node.imports].sort((a, b) => a.localeCompare(b)),
    }));
}

/**
 * The cycles of the folder graph, each as the folder names along it (`['a/', 'b/', 'a/']`), found by a depth-first
 * search from every folder in name order; a cycle is reported once, from its first folder by name. Empty when the
 * folders form a DAG.
 */
export function folderCycles(folders: readonly FolderNode[]): string[][] {
  const importsOf = new Map(folders.map((folder) => [folder.name, folder.imports]));
  const cycles = new Map<string, string[]>();
  const visit = (path: readonly string[]): void => {
    const here = path[path.length - 1] as string;
    for (const next of importsOf.get(here) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const cycle = path.slice(at);
        const first = [...cycle].sort()[0] as string;
        const from = cycle.indexOf(first);
        const rotated = [...cycle.slice(from), ...cycle.slice(0, from), first];
        cycles.set(rotated.join(' → '), rotated);
      } else if (next > (path[0] as string)) {
        visit([...path, next]);
      }
    }
  };
  for (const folder of folders) visit([folder.name]);
  return [...cycles.values()];
}
