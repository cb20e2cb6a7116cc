import { describe, expect, it } from 'vitest';
import { parseSettings } from './load-settings.js';
import { parseResourceCustomizations } from './resource-customizations.js';

describe('parseResourceCustomizations: argocd-cm as written there', () => {
  it('reads the block, then the split keys, which win', () => {
    const { overrides, problems } = parseResourceCustomizations({
      'resource.customizations': [
        'cert-manager.io/Certificate:',
        '  health.lua: block script',
        '  health.lua.useOpenLibs: true',
        '"*.crossplane.io/*":',
        '  health.lua: crossplane',
      ].join('\n'),
      'resource.customizations.health.cert-manager.io_Certificate': 'split script',
      'resource.customizations.health.ConfigMap': 'core',
      'resource.customizations.useOpenLibs.ConfigMap': 'true',
      'resource.customizations.health.all': 'every kind',
    });
    expect(problems).toEqual([]);
    expect(overrides).toEqual([
      { key: 'cert-manager.io/Certificate', healthLua: 'split script', useOpenLibs: true },
      { key: '*.crossplane.io/*', healthLua: 'crossplane', useOpenLibs: false },
      { key: 'ConfigMap', healthLua: 'core', useOpenLibs: true },
      { key: '*/*', healthLua: 'every kind', useOpenLibs: false },
    ]);
  });

  it('refuses what it does not apply, by name', () => {
    const { problems } = parseResourceCustomizations({
      'resource.customizations.actions.apps_Deployment': 'x',
      'resource.customizations.useOpenLibs.apps_Deployment': 'maybe',
      'resource.customizations.health.a_b_c': 'x',
      url: 'https://argocd.example.com',
      'resource.customizations': 'apps/Deployment:\n  ignoreDifferences: "x"\n  health.lua: 3\n',
    });
    expect(problems.map((p) => p.key)).toEqual([
      'resource.customizations: apps/Deployment.ignoreDifferences',
      'resource.customizations: apps/Deployment.health.lua',
      'resource.customizations.actions.apps_Deployment',
      'resource.customizations.useOpenLibs.apps_Deployment',
      'resource.customizations.health.a_b_c',
      'url',
    ]);
  });

  it('wavesync.yaml health: names the file, line and key of a refused customization', () => {
    const text = [
      'health:',
      '  builtInScripts: { directory: argo-cd/resource_customizations }',
      '  argocdCm:',
      '    resource.customizations.knownTypeFields.apps_Deployment: x',
    ].join('\n');
    expect(() => parseSettings(text, '/etc/wavesync.yaml')).toThrow(
      /wavesync\.yaml:4: .*knownTypeFields.*not applied by wavesync/,
    );
    const ok = parseSettings(text.split('\n').slice(0, 2).join('\n'), '/etc/wavesync.yaml');
    expect(ok.health).toEqual({
      builtInScripts: { directory: 'argo-cd/resource_customizations' },
      argocdCm: {},
      clusterArgocdCm: { namespace: 'argocd' }, // the default: the cluster's own argocd-cm, where it has one
    });
  });
});
