import { describe, expect, it } from 'vitest';
import { createResourceActionCatalog } from './action-catalog.js';
import { RESTARTED_AT_ANNOTATION } from './built-in-actions.js';
import { runActionScript } from './run-action-script.js';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', annotations: {} },
  spec: { replicas: 2, paused: true, template: { metadata: { labels: { app: 'web' } }, spec: {} } },
};

const widget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'ns' },
  spec: {},
};

function overrideCatalog(discoveryLua: string, definitions: { name: string; actionLua: string }[]) {
  return createResourceActionCatalog({
    overrides: [{ key: 'example.com/Widget', discoveryLua, definitions, mergeBuiltinActions: false }],
  });
}

describe('runActionScript', () => {
  const run = (source: string, extra: Partial<Parameters<typeof runActionScript>[0]> = {}) =>
    runActionScript({ source, name: 'test.lua', openLibs: false, obj: deployment, ...extra });

  it('gives every call a fresh state: a global one script sets is not seen by the next', () => {
    expect(run('leaked = "yes"; return {}')).toEqual([]);
    expect(run('return {leaked = leaked == nil}')).toEqual({ leaked: true });
  });

  it('encodes tables as gopher-json does: sequences are lists, mixed keys an object, empty a list', () => {
    expect(run('return {a = {1, 2}, b = {}, c = {[1] = "x", y = "z"}, d = {[2] = "two"}}')).toEqual({
      a: [1, 2],
      b: [],
      c: { '1': 'x', y: 'z' },
      d: { '2': 'two' },
    });
    expect(() => run('local t = {}; t.self = t; return t')).toThrow(/recursively nested/);
    expect(() => run('return {f = print}')).toThrow(/cannot encode function/);
  });

  it('gives actions the safe os only, discovery the open libraries', () => {
    expect(() => run('return {x = string.upper("a")}')).toThrow(/string/);
    expect(run('return {x = string.upper("a")}', { openLibs: true })).toEqual({ x: 'A' });
    expect(run('local os = require("os"); return {t = type(os.time()), e = os.execute == nil}')).toEqual({
      t: 'number',
      e: true,
    });
    expect(() => run('return require("io")')).toThrow(/module 'io' not found/);
  });

  it('stops a script that runs too long, even one that catches errors', () => {
    expect(() => run('while true do pcall(function() while true do end end) end', { timeoutMs: 50 })).toThrow(
      'test.lua: timed out after 50 ms',
    );
  });

  it("gives error(msg, 0)'s message as it is, and binds actionParams", () => {
    expect(() => run('error("bad: " .. actionParams.n, 0)', { params: { n: 'x' } })).toThrow(/^bad: x$/);
  });
});

describe('createResourceActionCatalog', () => {
  it("offers and runs the Go built-in restart where no script exists, setting the template's restartedAt", () => {
    const catalog = createResourceActionCatalog({});
    expect(catalog.discover(deployment)).toEqual([
      { name: 'restart', disabled: false, iconClass: 'fa fa-fw fa-redo' },
    ]);
    const before = Date.now() - 1000;
    const impacted = catalog.run(deployment, 'restart')[0];
    if (impacted === undefined) throw new Error('no result');
    expect(impacted.operation).toBe('patch');
    const template = (impacted.resource.spec as { template: { metadata: Record<string, unknown> } }).template;
    expect(template.metadata.labels).toEqual({ app: 'web' });
    const restartedAt = (template.metadata.annotations as Record<string, string>)[RESTARTED_AT_ANNOTATION];
    expect(restartedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(restartedAt as string)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(deployment.spec.template.metadata).toEqual({ labels: { app: 'web' } });
    expect(() => catalog.run(deployment, 'scale')).toThrow('apps/Deployment has no action named scale');
    expect(catalog.discover({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).toEqual([]);
  });

  it('reads discovery: disabled, params, and an empty table as an action with nothing set', () => {
    const catalog = overrideCatalog(
      'return {a = {disabled = true, iconClass = "i"}, b = {}, c = {params = {{name = "n", default = "1"}}}}',
      [],
    );
    expect(catalog.discover(widget)).toEqual([
      { name: 'a', disabled: true, iconClass: 'i' },
      { name: 'b', disabled: false },
      { name: 'c', disabled: false, params: [{ name: 'n', default: '1' }] },
    ]);
    expect(overrideCatalog('return {}', []).discover(widget)).toEqual([]);
  });

  it('runs new-style actions (patch and create) and refuses other operations', () => {
    const catalog = overrideCatalog('return {}', [
      {
        name: 'both',
        actionLua:
          'obj.spec.n = 1\nreturn {{operation = "patch", resource = obj}, {operation = "create", resource = {apiVersion = "v1", kind = "ConfigMap", metadata = {name = "made"}}}}',
      },
      { name: 'bad', actionLua: 'return {{operation = "delete", resource = obj}}' },
    ]);
    const impacted = catalog.run(widget, 'both');
    expect(impacted.map((i) => i.operation)).toEqual(['patch', 'create']);
    expect(impacted[0]?.resource.spec).toEqual({ n: 1 });
    expect(() => catalog.run(widget, 'bad')).toThrow('unsupported operation: "delete"');
  });

  it("keeps a map the script left empty a map (Argo CD's cleanReturnedObj)", () => {
    const catalog = overrideCatalog('return {}', [
      { name: 'touch', actionLua: 'obj.spec.x = 1\nreturn obj' },
    ]);
    const obj = { ...widget, metadata: { ...widget.metadata, labels: {} } };
    const [impacted] = catalog.run(obj, 'touch');
    expect(impacted?.resource.metadata).toEqual({ name: 'w', namespace: 'ns', labels: {} });
  });
});
