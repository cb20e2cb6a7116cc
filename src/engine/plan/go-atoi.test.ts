import { describe, expect, it } from 'vitest';
import { goAtoi } from './go-atoi.js';

describe('src/engine/go-atoi', () => {
  it.each([
    ['0', 0],
    ['5', 5],
    ['-1', -1],
    ['+3', 3],
    ['007', 7],
    ['-0', 0],
    ['9223372036854775807', Number(2n ** 63n - 1n)],
    ['-9223372036854775808', -Number(2n ** 63n)],
  ])('accepts %j as %d, as Go strconv.Atoi does', (text, value) => {
    expect(goAtoi(text)).toBe(value);
  });

  it.each([
    '',
    ' 5',
    '5 ',
    '1.5',
    '1e3',
    '0x10',
    '1_000',
    '+',
    '-',
    'abc',
    '９',
    '9223372036854775808',
    '--1',
  ])('rejects %j', (text) => {
    expect(goAtoi(text)).toBeUndefined();
  });
});
