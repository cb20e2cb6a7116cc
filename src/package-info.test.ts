import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageVersion } from './package-info.js';

describe('packageVersion (wavesync --version)', () => {
  it("is package.json's version", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'));
    expect(packageVersion()).toBe(pkg.version);
  });
});
