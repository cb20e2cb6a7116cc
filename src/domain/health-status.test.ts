import { describe, expect, it } from 'vitest';
import { isWorse, worstHealth } from './health-status.js';

describe('src/domain/health-status', () => {
  it('orders codes as gitops-engine does: Degraded is worse than Progressing, Unknown worst', () => {
    expect(isWorse('Degraded', 'Progressing')).toBe(true);
    expect(isWorse('Healthy', 'Suspended')).toBe(false);
    expect(isWorse('Unknown', 'Degraded')).toBe(true);
  });

  it('aggregates to the worst status and keeps its message', () => {
    const worst = worstHealth([
      { status: 'Healthy' },
      { status: 'Degraded', message: 'ImagePullBackOff' },
      { status: 'Progressing' },
    ]);

    expect(worst).toEqual({ status: 'Degraded', message: 'ImagePullBackOff' });
    expect(worstHealth([])).toEqual({ status: 'Healthy' });
  });
});
