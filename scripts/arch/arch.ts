/**
 * `npm run arch` — rewrites the generated folder graphs of docs/architecture.md from the code (dependency-cruiser's
 * JSON over src/, with the lint config, so tests are excluded). `npm run arch -- --check` writes nothing and exits
 * 1 naming the stale sections when the document differs from the code (`npm run lint` runs it); both exit 1
 * naming the cycle when src/ folders import each other in a cycle; 2 when the cruise fails or the markers are
 * missing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { ICruiseResult } from 'dependency-cruiser';
import { srcFolderCycles, updateArchitectureDoc } from './architecture-doc.js';

const DOC = 'docs/architecture.md';
const check = process.argv.includes('--check');

function cruise(): ICruiseResult {
  const args = ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  const run = spawnSync('node_modules/.bin/depcruise', args, {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  try {
    return JSON.parse(run.stdout) as ICruiseResult;
  } catch {
    throw new Error(`depcruise gave no JSON (exit ${run.status}): ${run.stderr || run.error?.message}`);
  }
}

try {
  const doc = readFileSync(DOC, 'utf8');
  const { modules } = cruise();
  for (const cycle of srcFolderCycles(modules)) {
    console.error(
      `src/ folders import each other in a cycle: ${cycle.join(' → ')}. Break it (a port, or a move).`,
    );
    process.exitCode = 1;
  }
  const { text, stale } = updateArchitectureDoc(doc, modules);
  if (stale.length === 0) {
    console.log(`${DOC}: the folder graphs match the code`);
  } else if (check) {
    const before = doc.split('\n');
    const after = text.split('\n');
    const at = after.findIndex((line, i) => line !== before[i]);
    console.error(
      `${DOC} is stale: ${stale.join(', ')} differ from the code. Run \`npm run arch\` and commit ${DOC}.\n` +
        `First difference, line ${at + 1}:\n- ${before[at] ?? ''}\n+ ${after[at] ?? ''}`,
    );
    process.exitCode = 1;
  } else {
    writeFileSync(DOC, text);
    console.log(`${DOC}: rewrote ${stale.join(', ')}`);
  }
} catch (error) {
  console.error(`npm run arch: ${DOC}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
