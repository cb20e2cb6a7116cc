import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { chartEntries } from './chart-repository.js';

const entry = (name: string, version: string) => ({
  apiVersion: 'v2',
  name,
  version,
  digest: 'a'.repeat(64),
  urls: [`${name}-${version}.tgz`],
});
const index = {
  apiVersion: 'v1',
  entries: {
    nginx: [entry('nginx', '1.0.0')],
    redis: [entry('redis', '17.3.2'), entry('redis', '17.2.0')],
    'redis-ha': [entry('redis-ha', '4.0.0')],
  },
  generated: '2026-01-01T00:00:00Z',
};

describe('chartEntries', () => {
  it("reads one chart's entries the same as a full parse, whether versions are indented (yaml) or not (helm repo index)", () => {
    const indented = stringify(index);
    const helmLayout = indented.replace(/^( {4})- /gm, '  - ').replace(/^ {6}/gm, '    ');
    expect(parse(helmLayout)).toEqual(index);

    for (const text of [indented, helmLayout]) {
      expect(chartEntries(text, 'redis')).toEqual(index.entries.redis);
      expect(chartEntries(text, 'redis-ha')).toEqual(index.entries['redis-ha']);
      expect(chartEntries(text, 'nginx')).toEqual(index.entries.nginx);
      expect(chartEntries(text, 'mysql')).toBeUndefined();
    }
  });

  it('parses an index of another layout whole', () => {
    const flow = JSON.stringify(index);
    expect(chartEntries(flow, 'redis')).toEqual(index.entries.redis);
    const quoted = 'entries:\n  "redis":\n  - { version: 1.0.0 }\n';
    expect(chartEntries(quoted, 'redis')).toEqual([{ version: '1.0.0' }]);
  });
});
