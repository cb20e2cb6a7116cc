import { describe, expect, it } from 'vitest';
import { createRenderCache } from './render-cache.js';

const rendered = (name: string, objects: number) => ({
  revision: name,
  targets: Array.from({ length: objects }, (_, i) => ({
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${name}-${i}` },
      data: { i: String(i) },
    },
    source: { file: `/apps/${name}.yaml`, line: 1 + i * 6 },
  })),
});

describe('render cache', () => {
  it('hands out a copy: a caller changing its objects changes no other caller’s', () => {
    const cache = createRenderCache<ReturnType<typeof rendered>>();
    const value = rendered('a', 2);
    cache.set('a', value);
    value.targets[0]!.object.data.i = 'changed before the get';
    const first = cache.get('a')!;
    first.targets[1]!.object.data.i = 'changed by a caller';
    expect(cache.get('a')).toEqual(rendered('a', 2));
    expect(cache.get('b')).toBeUndefined();
  });

  it('keeps the most recently used entries within maxBytes and maxEntries', () => {
    const one = createRenderCache<ReturnType<typeof rendered>>();
    one.set('x', rendered('x', 100));
    const entryBytes = one.bytes;

    const cache = createRenderCache<ReturnType<typeof rendered>>({ maxBytes: Math.floor(entryBytes * 3.5) });
    for (const name of ['a', 'b', 'c']) cache.set(name, rendered(name, 100));
    cache.get('a');
    cache.set('d', rendered('d', 100));
    expect([cache.size, cache.bytes <= entryBytes * 3.5]).toEqual([3, true]);
    // b was the least recently used.
    expect(['a', 'b', 'c', 'd'].map((k) => cache.get(k) !== undefined)).toEqual([true, false, true, true]);

    // An entry larger than the bound is not kept (and evicts nothing).
    cache.set('huge', rendered('huge', 1000));
    expect([cache.size, cache.get('huge')]).toEqual([3, undefined]);

    const few = createRenderCache<ReturnType<typeof rendered>>({ maxEntries: 2 });
    for (const name of ['a', 'b', 'c']) few.set(name, rendered(name, 1));
    expect([few.size, few.get('a'), few.get('c')?.revision]).toEqual([2, undefined, 'c']);
  });
});
