import { describe, expect, it } from 'vitest';
import { updateArchitectureDoc } from '../../../scripts/arch/architecture-doc.js';
import { type CruisedModule, folderGraphOf, folderUnder } from '../../../scripts/arch/folder-graph.js';
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

const LINES: Record<string, number> = {
  'src/domain/types.ts': 40,
  'src/domain/index.ts': 2,
  'src/engine/plan/order.ts': 30,
  'src/engine/task.ts': 20,
  'src/engine/index.ts': 3,
  'src/queue/line.ts': 50,
  'src/config.ts': 10,
};
const linesOf = (path: string) => LINES[path] ?? 0;

describe('folderGraphOf', () => {
  it('counts files, lines and imports per folder, local imports of other folders only', () => {
    const folders = folderGraphOf(MODULES, folderUnder('src/'), linesOf);
    expect(folders.map((f) => [f.name, f.files, f.lines, Object.fromEntries(f.imports)])).toEqual([
      ['*.ts', 1, 10, { 'domain/': 1 }],
      ['domain/', 2, 42, {}],
      ['engine/', 3, 53, { 'domain/': 2 }],
      ['queue/', 1, 50, { 'domain/': 1, 'engine/': 1 }],
    ]);
  });

  it('names imported folders it does not count with targetOf', () => {
    const src = folderUnder('src/');
    const folders = folderGraphOf(
      MODULES,
      src,
      linesOf,
      (p) => src(p) ?? (p.startsWith('sim/') ? '../sim/' : undefined),
    );
    expect([...(folders.find((f) => f.name === 'queue/')?.imports.keys() ?? [])]).toEqual([
      '../sim/',
      'domain/',
      'engine/',
    ]);
  });
});

describe('rendering', () => {
  const folders = folderGraphOf(MODULES, folderUnder('src/'), linesOf);

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

  it('tabulates folder, files, lines and imports, columns lined up', () => {
    expect(renderTable(folders)).toBe(
      [
        '| folder    | files | lines | imports (count)              |',
        '| --------- | ----- | ----- | ---------------------------- |',
        '| `*.ts`    | 1     | 10    | `domain/` (1)                |',
        '| `domain/` | 2     | 42    | —                            |',
        '| `engine/` | 3     | 53    | `domain/` (2)                |',
        '| `queue/`  | 1     | 50    | `domain/` (1), `engine/` (1) |',
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
    const first = updateArchitectureDoc(doc, MODULES, linesOf);
    expect(first.stale).toEqual(['src-folders', 'engine-folders']);
    expect(first.text).toContain('hand-written text');
    expect(first.text).not.toContain('old diagram');
    expect(first.text).toContain('| `queue/`  | 1     | 50    |');
    // the engine section: src/engine/index.ts (the public face) left out, plan/ imports the root files
    expect(first.text).toContain('  n_plan --> n_ts\n');
    expect(first.text).toContain('| `plan/` | 1     | 30    | `*.ts` (1)      |');
    expect(updateArchitectureDoc(first.text, MODULES, linesOf)).toEqual({ text: first.text, stale: [] });
  });

  it('refuses a document without the markers', () => {
    expect(() => updateArchitectureDoc('# Architecture\n', MODULES, linesOf)).toThrow(
      /no "<!-- arch:src-folders begin … -->" … "<!-- arch:src-folders end -->" markers/,
    );
  });
});
