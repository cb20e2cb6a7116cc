import { describe, expect, it } from 'vitest';
import { originLocation } from './application.js';

describe('originLocation', () => {
  it("reads a file's line, a generated Application's ApplicationSet, and gives line 1 to an origin without one", () => {
    expect(originLocation('applications/shop.yaml:12')).toEqual({ file: 'applications/shop.yaml', line: 12 });
    expect(originLocation('appsets/shops.yaml:3 (ApplicationSet shops)')).toEqual({
      file: 'appsets/shops.yaml',
      line: 3,
      generatedBy: 'shops',
    });
    expect(originLocation('https://git.example/apps.git#apps/shop.yaml')).toEqual({
      file: 'https://git.example/apps.git#apps/shop.yaml',
      line: 1,
    });
  });
});
