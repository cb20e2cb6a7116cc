import { describe, expect, it } from 'vitest';
import { resumedFromOf } from './resumed-from.js';

describe('resumedFromOf', () => {
  const worker = '6f1c2a0e-9d7b-4a53-8c1e-2b0f4d9e7a11';
  const other = 'a3b4c5d6-1e2f-4a5b-9c8d-7e6f5a4b3c2d';

  it('tells tokens of one BullMQ Worker (`<worker id>:<n>`) from tokens of another', () => {
    expect(resumedFromOf(`${worker}:3`, `${worker}:17`)).toEqual({ resumedFrom: 'this-worker' });
    expect(resumedFromOf(`${other}:3`, `${worker}:17`)).toEqual({ resumedFrom: 'another-worker' });
  });

  it('says nothing on a first run (no earlier owner)', () => {
    expect(resumedFromOf(undefined, `${worker}:0`)).toEqual({});
    expect(resumedFromOf('', `${worker}:0`)).toEqual({});
  });
});
