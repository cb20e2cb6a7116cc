import { describe, expect, it } from 'vitest';
import { countEventLoopTurns } from '../../../test/support/event-loop-turns.js';
import { TimeSlice } from '../../engine/index.js';
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
  it('hands out a copy: a caller changing its objects changes no other caller’s', async () => {
    const cache = createRenderCache<ReturnType<typeof rendered>>();
    const value = rendered('a', 2);
    await cache.set('a', value);
    value.targets[0]!.object.data.i = 'changed before the get';
    const first = (await cache.get('a'))!;
    first.targets[1]!.object.data.i = 'changed by a caller';
    expect(await cache.get('a')).toEqual(rendered('a', 2));
    expect(await cache.get('b')).toBeUndefined();
  });

  it('keeps the most recently used entries within maxBytes and maxEntries', async () => {
    const one = createRenderCache<ReturnType<typeof rendered>>();
    await one.set('x', rendered('x', 100));
    const entryBytes = one.bytes;

    const cache = createRenderCache<ReturnType<typeof rendered>>({ maxBytes: Math.floor(entryBytes * 3.5) });
    for (const name of ['a', 'b', 'c']) await cache.set(name, rendered(name, 100));
    await cache.get('a');
    await cache.set('d', rendered('d', 100));
    expect([cache.size, cache.bytes <= entryBytes * 3.5]).toEqual([3, true]);
    // b was the least recently used.
    const kept = [];
    for (const k of ['a', 'b', 'c', 'd']) kept.push((await cache.get(k)) !== undefined);
    expect(kept).toEqual([true, false, true, true]);

    // An entry larger than the bound is not kept (and evicts nothing).
    await cache.set('huge', rendered('huge', 1000));
    expect([cache.size, await cache.get('huge')]).toEqual([3, undefined]);

    const few = createRenderCache<ReturnType<typeof rendered>>({ maxEntries: 2 });
    for (const name of ['a', 'b', 'c']) await few.set(name, rendered(name, 1));
    expect([few.size, await few.get('a'), (await few.get('c'))?.revision]).toEqual([2, undefined, 'c']);
  });

  it('keeps and hands out a big entry between turns of the event loop (serve: 50,000 objects), the same objects in order', async () => {
    const cache = createRenderCache<ReturnType<typeof rendered>>();
    const value = rendered('big', 5000);
    // A slice of 0 ms pauses at every chunk: whether it pauses does not depend on the machine's speed.
    const turns = countEventLoopTurns();
    await cache.set('big', value, new TimeSlice(0));
    const copy = await cache.get('big', new TimeSlice(0));
    const during = turns.stop();

    expect(during).toBeGreaterThan(10);
    expect(copy).toEqual(value);
  });
});
