import { describe, expect, it } from 'vitest';
import { parseResourceCustomizations } from './resource-customizations.js';

describe('argocd-cm resource actions', () => {
  it('reads the split key and the block entry, as Argo CD writes them', () => {
    const { actions, problems } = parseResourceCustomizations({
      'resource.customizations': [
        'example.com/Widget:',
        '  actions: |',
        '    discovery.lua: return {}',
        '    mergeBuiltinActions: true',
      ].join('\n'),
      'resource.customizations.actions.apps_Deployment': [
        'discovery.lua: |',
        '  return {poke = {}}',
        'definitions:',
        '  - name: poke',
        '    action.lua: return obj',
      ].join('\n'),
    });
    expect(problems).toEqual([]);
    expect(actions).toEqual([
      { key: 'example.com/Widget', discoveryLua: 'return {}', definitions: [], mergeBuiltinActions: true },
      {
        key: 'apps/Deployment',
        discoveryLua: 'return {poke = {}}\n',
        definitions: [{ name: 'poke', actionLua: 'return obj' }],
        mergeBuiltinActions: false,
      },
    ]);
  });

  it('refuses a field it does not know and a definition without a name, by key', () => {
    const { problems } = parseResourceCustomizations({
      'resource.customizations.actions.Pod': 'discovery.lua: x\nrun: y\ndefinitions:\n  - action.lua: z\n',
    });
    expect(problems.map((p) => p.key)).toEqual([
      'resource.customizations.actions.Pod.run',
      'resource.customizations.actions.Pod.definitions[0].name',
    ]);
  });
});
