#!/usr/bin/env node
// Entry point of the `wavesync` command. It runs the compiled dist/ when that is current — in an installed package
// or image (no src/), or in a checkout after `npm run build` with no source file changed since — and otherwise the
// TypeScript sources through tsx, so a checkout needs no build step. Compiled start-up is ~0.3 s, tsx's ~3 s.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/src/cli/main.js', import.meta.url);

/**
 * Newest modification time (ms) of the non-test .ts files under `dir`, 0 when there are none. Walks with
 * withFileTypes: Node 20's `readdirSync(dir, { recursive: true })` is implemented in JavaScript and costs about
 * three times as much (~80 ms for src/ and sim/ on a loaded machine, bench/cli-startup.bench.ts).
 */
function newestSourceMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMs(file));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(file).mtimeMs);
    }
  }
  return newest;
}

function compiledIsCurrent() {
  if (!existsSync(compiled)) return false;
  if (!existsSync(sources)) return true;
  const folders = ['src', 'sim'].map((folder) => `${root}${folder}`).filter((dir) => existsSync(dir));
  return statSync(compiled).mtimeMs >= Math.max(0, ...folders.map(newestSourceMs));
}

if (compiledIsCurrent()) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
}
