import { describe, expect, it } from 'vitest';
import { displayRevision } from './revision.js';

describe('displayRevision', () => {
  it('shows a git SHA as 7 characters with its ref, and a local folder content hash as local@<8>', () => {
    const sha = `3f9c2e1${'d'.repeat(33)}`;
    expect(displayRevision(sha, 'main')).toBe('3f9c2e1 (main)');
    expect(displayRevision(sha)).toBe('3f9c2e1');
    expect(displayRevision(sha, '3f9c2e1')).toBe('3f9c2e1');
    expect(displayRevision(`5b1e0c9a${'0'.repeat(56)}`)).toBe('local@5b1e0c9a');
    expect(displayRevision('5b1e0c9a77d2')).toBe('local@5b1e0c9a');
    expect(displayRevision('v1.2.0')).toBe('v1.2.0');
  });
});
