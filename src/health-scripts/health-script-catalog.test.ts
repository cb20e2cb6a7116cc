import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHealthScriptCatalog, globToRegExp } from './health-script-catalog.js';

function folder(scripts: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'health-scripts-'));
  for (const [key, source] of Object.entries(scripts)) {
    mkdirSync(path.join(dir, key), { recursive: true });
    writeFileSync(path.join(dir, key, 'health.lua'), source);
  }
  return dir;
}

const builtInDir = folder({
  'cert-manager.io/Certificate': 'built-in certificate',
  '_.crossplane.io/_': 'built-in crossplane wildcard',
  'aws.crossplane.io/_': 'built-in aws wildcard',
  ConfigMap: 'built-in core',
});

describe("createHealthScriptCatalog: Argo CD's precedence", () => {
  it('user override for group/Kind, then a wildcard override, then the built-in folder, then its wildcards', () => {
    const catalog = createHealthScriptCatalog({
      builtInDir,
      overrides: [
        { key: 'cert-manager.io/Certificate', healthLua: 'override certificate', useOpenLibs: false },
        { key: '*.example.com/*', healthLua: 'override wildcard', useOpenLibs: true },
        { key: 'cert-manager.io/Issuer', healthLua: '', useOpenLibs: true },
      ],
    });
    expect(catalog.scriptFor('cert-manager.io/v1', 'Certificate')).toEqual({
      origin: 'override',
      name: 'resource.customizations.health.cert-manager.io_Certificate',
      source: 'override certificate',
      openLibs: false,
    });
    expect(catalog.scriptFor('db.example.com/v1', 'Database')?.source).toBe('override wildcard');
    expect(catalog.scriptFor('cert-manager.io/v1', 'Issuer')).toBeUndefined(); // empty override: skipped
    expect(catalog.scriptFor('v1', 'ConfigMap')).toMatchObject({
      origin: 'built-in',
      source: 'built-in core',
    });
    // wildcard folders in sorted order: '_.crossplane.io/_' sorts before 'aws.crossplane.io/_'
    expect(catalog.scriptFor('ec2.aws.crossplane.io/v1', 'Instance')).toMatchObject({
      origin: 'built-in',
      name: '_.crossplane.io/_/health.lua',
      openLibs: true,
    });
    expect(catalog.scriptFor('aws.crossplane.io/v1', 'Bucket')?.name).toBe('_.crossplane.io/_/health.lua');
    expect(catalog.scriptFor('apps/v1', 'Deployment')).toBeUndefined();
  });

  it('a user override wins over the built-in script; built-in scripts always open the libraries', () => {
    const none = createHealthScriptCatalog({ builtInDir });
    expect(none.scriptFor('cert-manager.io/v1', 'Certificate')).toMatchObject({
      source: 'built-in certificate',
    });
    const all = createHealthScriptCatalog({
      overrides: [{ key: '*/*', healthLua: 'every', useOpenLibs: false }],
    });
    expect(all.scriptFor('cert-manager.io/v1', 'Certificate')?.source).toBe('every');
    // a core kind's key has no '/' ('Pod'), so '*/*' (argocd-cm's 'all') does not match it, as in Argo CD
    expect(all.scriptFor('v1', 'Pod')).toBeUndefined();
  });

  it('never reads outside the folder', () => {
    const catalog = createHealthScriptCatalog({ builtInDir: path.join(builtInDir, 'cert-manager.io') });
    expect(catalog.scriptFor('../v1', 'ConfigMap')).toBeUndefined();
  });
});

describe('globToRegExp', () => {
  it('* crosses / for overrides (gobwas glob), not for folders (doublestar)', () => {
    expect(globToRegExp('*', true).test('a.b/C')).toBe(true);
    expect(globToRegExp('*', false).test('a.b/C')).toBe(false);
    expect(globToRegExp('*.crossplane.io/*', false).test('ec2.aws.crossplane.io/Instance')).toBe(true);
    expect(globToRegExp('{a,b}.io/[KL]ind', true).test('b.io/Lind')).toBe(true);
    expect(globToRegExp('a.io/Kind', true).test('aXio/Kind')).toBe(false);
  });
});
