import { describe, expect, it } from 'vitest';
import { updateArchitectureDoc } from '../../../scripts/arch/architecture-doc.js';
import {
  type CruisedModule,
  type FolderNode,
  folderCycles,
  folderGraphOf,
  folderUnder,
} from '../../../scripts/arch/folder-graph.js';
import { renderMermaid, renderTable } from '../../../scripts/arch/render-graph.js';

const local = (resolved: string) => ({ resolved, dependencyTypes: ['local', 'import'] });

/** A tiny src/: a domain imported by everyone, a planner inside the engine, a queue, and npm/core imports. */
const MODULES: CruisedModule[] = [
  { source: 'src/domain/types.ts', dependencies: [] },
  { source: 'src/domain/index.ts', dependencies: [local('src/domain/types.ts')] },
  {
    source: 'src/engine/plan/order.ts',
    dependencies: [local('src/domain/index.ts'), local('src/engine/task.ts')],
  },
  { source: 'src/engine/task.ts', dependencies: [local('src/domain/index.ts')] },
  {
    source: 'src/engine/index.ts',
    dependencies: [local('src/engine/plan/order.ts'), local('src/engine/task.ts')],
  },
  {
    source: 'src/queue/line.ts',
    dependencies: [
      local('src/domain/index.ts'),
      local('src/engine/index.ts'),
      { resolved: 'node_modules/bullmq/dist/index.js', dependencyTypes: ['npm'] },
      { resolved: 'node:crypto', dependencyTypes: ['core'] },
      local('sim/server.ts'),
    ],
  },
  { source: 'src/config.ts', dependencies: [local('src/domain/index.ts')] },
];

describe('folderGraphOf', () => {
  it('counts files and lists imported folders per folder, local imports of other folders only', () => {
    const folders = folderGraphOf(MODULES, folderUnder('src/'));
    expect(folders.map((f) => [f.name, f.files, f.imports])).toEqual([
      ['*.ts', 1, ['domain/']],
      ['domain/', 2, []],
      ['engine/', 3, ['domain/']],
      ['queue/', 1, ['domain/', 'engine/']],
    ]);
  });

  it('names imported folders it does not count with targetOf', () => {
    const src = folderUnder('src/');
    const folders = folderGraphOf(
      MODULES,
      src,
      (p) => src(p) ?? (p.startsWith('sim/') ? '../sim/' : undefined),
    );
    expect([...(folders.find((f) => f.name === 'queue/')?.imports ?? [])]).toEqual([
      '../sim/',
      'domain/',
      'engine/',
    ]);
  });
});

describe('rendering', () => {
  const folders = folderGraphOf(MODULES, folderUnder('src/'));

  it('draws one arrow list per folder and no arrows to a folder every other folder imports', () => {
    expect(renderMermaid(folders)).toBe(
      [
        '```mermaid',
        'flowchart TD',
        '  n_ts["*.ts"]',
        '  n_domain["domain/ (imported by all)"]',
        '  n_engine["engine/"]',
        '  n_queue["queue/"]',
        '  n_queue --> n_engine',
        '```',
      ].join('\n'),
    );
  });

  it('tabulates folder, files and imports, columns lined up', () => {
    expect(renderTable(folders)).toBe(
      [
        '| folder    | files | imports              |',
        '| --------- | ----- | -------------------- |',
        '| `*.ts`    | 1     | `domain/`            |',
        '| `domain/` | 2     | —                    |',
        '| `engine/` | 3     | `domain/`            |',
        '| `queue/`  | 1     | `domain/`, `engine/` |',
      ].join('\n'),
    );
  });
});

describe('updateArchitectureDoc', () => {
  const doc = [
    '# Architecture',
    '<!-- arch:src-folders begin: generated -->',
    'old diagram',
    '<!-- arch:src-folders end -->',
    'hand-written text',
    '<!-- arch:engine-folders begin: generated -->',
    '<!-- arch:engine-folders end -->',
    '',
  ].join('\n');

  it('rewrites only between the markers, names the stale sections, and is stable on its own output', () => {
    const first = updateArchitectureDoc(doc, MODULES);
    expect(first.stale).toEqual(['src-folders', 'engine-folders']);
    expect(first.text).toContain('hand-written text');
    expect(first.text).not.toContain('old diagram');
    expect(first.text).toContain('| `queue/`  | 1     | `../sim/`, `domain/`, `engine/` |');
    // the engine section: src/engine/index.ts (the public face) left out, plan/ imports the root files
    expect(first.text).toContain('  n_plan --> n_ts\n');
    expect(first.text).toContain('| `plan/` | 1     | `*.ts`  |');
    expect(updateArchitectureDoc(first.text, MODULES)).toEqual({ text: first.text, stale: [] });
  });

  it('refuses a document without the markers', () => {
    expect(() => updateArchitectureDoc('# Architecture\n', MODULES)).toThrow(
      /no "<!-- arch:src-folders begin … -->" … "<!-- arch:src-folders end -->" markers/,
    );
  });
});

describe('folderCycles', () => {
  const node = (name: string, imports: string[]): FolderNode => ({ name, files: 1, imports });

  it('is empty for a DAG', () => {
    expect(folderCycles([node('a/', ['b/', 'c/']), node('b/', ['c/']), node('c/', [])])).toEqual([]);
  });

  it('names each cycle once, from its first folder by name', () => {
    const folders = [node('a/', ['b/']), node('b/', ['c/']), node('c/', ['a/', 'd/']), node('d/', ['c/'])];
    expect(folderCycles(folders)).toEqual([
      ['a/', 'b/', 'c/', 'a/'],
      ['c/', 'd/', 'c/'],
    ]);
  });
});
