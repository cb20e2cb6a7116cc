#!/usr/bin/env node
// Entry point of the `wavesync` command. In a checkout (src/ present) it runs the TypeScript sources through
// tsx, so no build step is needed; in an installed package or image (no src/) it runs the compiled dist/.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import(new URL('../dist/src/cli/main.js', import.meta.url).href);
}
