import { afterEach, describe, expect, it, vi } from 'vitest';
import { Wakeup } from './wakeup.js';

/** Settles pending microtasks; true when `p` has resolved. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('Wakeup', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when notified since the last reset, then wait() resolves true at once (latched)', async () => {
    const wake = new Wakeup();
    wake.reset();
    wake.notify();
    await expect(wake.wait(60_000)).resolves.toBe(true);
  });

  it('when notified before sleep(), then sleep() waits for the next notification (edge-triggered)', async () => {
    const wake = new Wakeup();
    wake.notify();
    const sleeping = wake.sleep(undefined);
    expect(await settled(sleeping)).toBe(false);
    wake.notify();
    await expect(sleeping).resolves.toBe(true);
  });

  it('when the timeout is undefined, then wait() does not time out; with a timeout it resolves false', async () => {
    vi.useFakeTimers();
    const wake = new Wakeup();
    const forever = wake.wait(undefined);
    const bounded = wake.wait(100);
    await vi.advanceTimersByTimeAsync(100);
    await expect(bounded).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(24 * 3600_000);
    expect(await settled(forever)).toBe(false);
  });

  it('when the signal aborts, then wait() resolves false', async () => {
    const wake = new Wakeup();
    const controller = new AbortController();
    const waiting = wake.wait(undefined, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBe(false);
  });
});
