import { describe, expect, it } from 'vitest';
import { rerunCommandOf } from './approval-request.js';

describe('rerunCommandOf: what an expired, invalidated or unqueued request tells the user to run again', () => {
  it('is /sync <app> for a sync and /sync delete <app> for a deletion', () => {
    expect(rerunCommandOf({ application: 'shop' })).toBe('/sync shop');
    const deletion = { request: { cascade: 'foreground' }, plan: {} } as unknown as NonNullable<
      Parameters<typeof rerunCommandOf>[0]['deletion']
    >;
    expect(rerunCommandOf({ application: 'shop', deletion })).toBe('/sync delete shop');
  });

  it("is /sync <appset> for an Application of an ApplicationSet's rollout (the rollout starts over)", () => {
    const rollout = { applicationSet: 'shop' } as NonNullable<
      Parameters<typeof rerunCommandOf>[0]['rollout']
    >;
    expect(rerunCommandOf({ application: 'shop-prod', rollout })).toBe('/sync shop');
  });
});
