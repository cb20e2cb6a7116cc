import { describe, expect, it } from 'vitest';
import { displayRevision, joinRevisions, splitRevisions } from './revision.js';

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

  it('shows a chart version with the range it was chosen by, and each source of a multi-source revision', () => {
    const sha = `3f9c2e1${'d'.repeat(33)}`;
    expect(displayRevision('17.3.2', '17.x')).toBe('17.3.2 (17.x)');
    expect(displayRevision('17.3.2', '17.3.2')).toBe('17.3.2');
    expect(displayRevision(`17.3.2;${sha};5b1e0c9a77d2`, '>=17.0.0 <18;main;')).toBe(
      '17.3.2 (>=17.0.0 <18) + 3f9c2e1 (main) + local@5b1e0c9a',
    );
    expect(displayRevision(`17.3.2;${sha}`)).toBe('17.3.2 + 3f9c2e1');
    expect(splitRevisions(joinRevisions(['1.0.0', sha]))).toEqual(['1.0.0', sha]);
  });
});
