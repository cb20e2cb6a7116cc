import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/index.js';
import { applicationsFromSettings } from './applications-from-settings.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples');

describe('applicationsFromSettings', () => {
  it('loads the demo Applications and renders one from the registry', async () => {
    const settings = await loadSettings(path.join(EXAMPLES, 'wavesync.yaml'));
    const { registry, renderer } = await applicationsFromSettings(settings, {
      env: { PATH: process.env.PATH },
    });

    const rendered = await renderer.renderApplication(registry.get('sync-waves'));

    expect(rendered.sourceType).toBe('Directory');
    expect(rendered.targets.map((t) => t.object.metadata.name ?? t.object.metadata.generateName)).toEqual([
      'upgrade-sql-schema',
      'backend',
      'backend',
      'maint-page-up',
      'frontend',
      'frontend',
      'maint-page-down',
    ]);
  });
});
