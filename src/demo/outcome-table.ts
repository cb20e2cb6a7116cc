/**
 * The table `wavesync demo` ends with: one row per app — outcome (✓/✗, phase), planned waves and hooks, the
 * operation's duration, the Slack Web API calls made in its channel, and the /sync ack time.
 */
import type { DemoOutcome } from './check-outcomes.js';

const HEADER = ['', 'APP', 'OUTCOME', 'WAVES', 'HOOKS', 'DURATION', 'SLACK CALLS', 'ACK'];

/** The table with a header row, columns padded to the widest cell, ending with a newline. */
export function outcomeTable(outcomes: readonly DemoOutcome[]): string {
  const rows = outcomes.map((o) => [
    o.ok ? '✓' : '✗',
    o.application,
    o.phase === o.expected ? o.phase : `${o.phase} (expected ${o.expected})`,
    String(o.waves),
    String(o.hooks),
    Number.isNaN(o.durationMs) ? '-' : `${(o.durationMs / 1000).toFixed(1)} s`,
    String(o.slackCalls),
    Number.isNaN(o.ackMs) ? '-' : `${o.ackMs.toFixed(0)} ms`,
  ]);
  const widths = HEADER.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  return `${[HEADER, ...rows]
    .map(
      (cells) =>
        `  ${cells
          .map((cell, c) => cell.padEnd(widths[c]!))
          .join('  ')
          .trimEnd()}`,
    )
    .join('\n')}\n`;
}
