#!/usr/bin/env node
// Entry point of the `wavesync` command. It runs the build when that is current — in an installed package or image
// (no src/), or in a checkout after `npm run build` with no source file changed since — and otherwise the
// TypeScript sources through tsx, so a checkout needs no build step. The build's bundle (dist/cli/main.js,
// scripts/bundle-cli.mjs) first, else tsc's output (dist/src/cli/main.js). Compiled start-up is ~0.3 s, tsx's ~3 s.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = new URL('../src/cli/main.ts', import.meta.url);
const builds = [
  new URL('../dist/cli/main.js', import.meta.url),
  new URL('../dist/src/cli/main.js', import.meta.url),
];

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

/** The first build that exists and is not older than any source file (sources are walked once, if at all). */
function currentBuild() {
  let newest;
  for (const build of builds) {
    if (!existsSync(build)) continue;
    if (!existsSync(sources)) return build;
    newest ??= Math.max(
      0,
      ...['src', 'sim']
        .map((folder) => `${root}${folder}`)
        .filter((dir) => existsSync(dir))
        .map(newestSourceMs),
    );
    if (statSync(build).mtimeMs >= newest) return build;
  }
  return undefined;
}

const build = currentBuild();
if (build !== undefined) {
  await import(build.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
}
