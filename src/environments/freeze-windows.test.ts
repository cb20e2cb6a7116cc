import { describe, expect, it } from 'vitest';
import { activeFreeze } from './freeze-windows.js';

const quarterEnd = { name: 'quarter-end', cron: '0 18 * * 5', durationMinutes: 63 * 60, timezone: 'UTC' };

describe('src/environments/freeze-windows', () => {
  it('is active from the cron start for the duration, and reports when it reopens', () => {
    const freeze = activeFreeze([quarterEnd], new Date('2026-11-28T12:00:00Z'));

    expect(freeze?.window.name).toBe('quarter-end');
    expect(freeze?.startedAt.toISOString()).toBe('2026-11-27T18:00:00.000Z');
    expect(freeze?.endsAt.toISOString()).toBe('2026-11-30T09:00:00.000Z');
  });

  it('includes the start instant and excludes the end instant', () => {
    expect(activeFreeze([quarterEnd], new Date('2026-11-27T18:00:00Z'))).toBeDefined();
    expect(activeFreeze([quarterEnd], new Date('2026-11-30T09:00:00Z'))).toBeUndefined();
    expect(activeFreeze([quarterEnd], new Date('2026-11-27T17:59:59Z'))).toBeUndefined();
  });

  it('honours the window time zone', () => {
    const berlin = { name: 'night', cron: '0 22 * * *', durationMinutes: 60, timezone: 'Europe/Berlin' };

    expect(activeFreeze([berlin], new Date('2026-11-29T21:30:00Z'))).toBeDefined();
    expect(activeFreeze([berlin], new Date('2026-11-29T22:30:00Z'))).toBeUndefined();
  });

  it('picks the window that ends last when several are active', () => {
    const short = { name: 'short', cron: '0 * * * *', durationMinutes: 30, timezone: 'UTC' };

    expect(activeFreeze([short, quarterEnd], new Date('2026-11-28T12:10:00Z'))?.window.name).toBe(
      'quarter-end',
    );
  });
});
