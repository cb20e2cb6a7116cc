#!/usr/bin/env node
// Entry point of the `wavesync` command. It runs the compiled dist/ when that is current — in an installed package
// or image (no src/), or in a checkout after `npm run build` with no source file changed since — and otherwise the
// TypeScript sources through tsx, so a checkout needs no build step. Compiled start-up is ~0.3 s, tsx's ~3 s.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/src/cli/main.js', import.meta.url);

/** Newest modification time (ms) of the .ts files under the folders, 0 when there are none. */
function newestSourceMs(folders) {
  let newest = 0;
  for (const folder of folders) {
    const dir = `${root}${folder}`;
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir, { recursive: true })) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      newest = Math.max(newest, statSync(`${dir}/${name}`).mtimeMs);
    }
  }
  return newest;
}

function compiledIsCurrent() {
  if (!existsSync(compiled)) return false;
  if (!existsSync(sources)) return true;
  return statSync(compiled).mtimeMs >= newestSourceMs(['src', 'sim']);
}

if (compiledIsCurrent()) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
}
