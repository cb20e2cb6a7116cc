import { describe, expect, it } from 'vitest';
import { closestNames } from './closest-names.js';

const KNOWN = ['guestbook', 'sync-waves', 'pre-post-sync', 'payments', 'payments-worker', 'rails'];

describe('closestNames', () => {
  it('suggests names within a small edit distance, closest first', () => {
    expect(closestNames('gustbook', KNOWN)).toEqual(['guestbook']);
    expect(closestNames('payment', KNOWN)).toEqual(['payments', 'payments-worker']);
  });

  it('suggests names that contain the query', () => {
    expect(closestNames('waves', KNOWN)).toEqual(['sync-waves']);
  });

  it('suggests nothing for an unrelated name', () => {
    expect(closestNames('kafka', KNOWN)).toEqual([]);
  });
});
