/**
 * Change-freeze windows: a window opens at every instant its cron expression matches (in its time zone; cron-parser
 * 4, the parser BullMQ uses for repeatable jobs) and stays closed for `durationMinutes`.
 */
import cronParser from 'cron-parser';
import type { FreezeWindow } from '../settings/index.js';

export interface ActiveFreeze {
  window: FreezeWindow;
  /** When the current window opened. */
  startedAt: Date;
  /** When it reopens (the latest end among overlapping windows of the same rule). */
  endsAt: Date;
}

/** The freeze in force at `now`, if any; with several, the one that ends last. */
export function activeFreeze(windows: readonly FreezeWindow[], now: Date): ActiveFreeze | undefined {
  let found: ActiveFreeze | undefined;
  for (const window of windows) {
    const startedAt = lastStartOf(window, now);
    if (startedAt === undefined) continue;
    const endsAt = new Date(startedAt.getTime() + window.durationMinutes * 60_000);
    if (endsAt <= now) continue;
    if (!found || endsAt > found.endsAt) found = { window, startedAt, endsAt };
  }
  return found;
}

/** The most recent start at or before `now` (cron-parser's prev() is exclusive, so ask from 1 ms later). */
function lastStartOf(window: FreezeWindow, now: Date): Date | undefined {
  const expression = cronParser.parseExpression(window.cron, {
    currentDate: new Date(now.getTime() + 1),
    tz: window.timezone,
  });
  try {
    return expression.prev().toDate();
  } catch {
    return undefined; // no earlier match (cron-parser throws when out of range)
  }
}
