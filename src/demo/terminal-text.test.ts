import { describe, expect, it } from 'vitest';
import { visibleLength, wrapText } from './terminal-text.js';

describe('wrapText', () => {
  it('keeps a short line, wraps a long one at spaces with the indent, and trims past three lines', () => {
    expect(wrapText('short line', 20, '  ')).toBe('short line');
    expect(wrapText('aaaa bbbb cccc dddd', 10, '  ')).toBe('aaaa bbbb\n  cccc\n  dddd');
    expect(wrapText('aaaa bbbb cccc dddd eeee ffff', 10, '  ')).toBe('aaaa bbbb\n  cccc\n  dddd…');
    expect(wrapText('x'.repeat(30), 10, '  ')).toBe(`${'x'.repeat(9)}…`);
    expect(wrapText('  Redis at the end', 12, '    ')).toBe('  Redis at\n    the end');
  });

  it('ends a trimmed line with one "…": not after a separator, nor after an ellipsis of its own', () => {
    expect(wrapText('aaaa bbbb cccc dddd ee ff · gggggggg', 12, '  ')).toBe(
      'aaaa bbbb\n  cccc dddd\n  ee ff…',
    );
    expect(wrapText('aaaa bbbb cccc dddd ee ff… gggggggg', 12, '  ')).toBe(
      'aaaa bbbb\n  cccc dddd\n  ee ff…',
    );
    expect(wrapText(`aaaa bbbb cccc dddd ${'x'.repeat(30)} gg`, 12, '  ')).toBe(
      `aaaa bbbb\n  cccc dddd\n  ${'x'.repeat(8)}…`,
    );
  });

  it('does not count ANSI colour codes as columns', () => {
    const label = '\u001b[36m[app]\u001b[39m';
    expect(visibleLength(`${label} ok`)).toBe(8);
    expect(wrapText(`${label} ok`, 8, '  ')).toBe(`${label} ok`);
  });
});
