import { describe, expect, it } from 'vitest';
import type { OperationState, ResourceResult } from '../domain/index.js';
import { operationStateJson } from './state-json.js';

const state = (n: number): OperationState => ({
  operation: { prune: false, dryRun: false, syncOptions: [] },
  phase: 'Running',
  // Strings that look like the text around the results must stay as they are.
  message: '"resources":[] and "wavesync-results-x"',
  startedAt: new Date().toISOString(),
  syncResult: {
    revision: 'abc',
    resources: Array.from(
      { length: n },
      (_, i): ResourceResult => ({
        group: '',
        version: 'v1',
        kind: 'ConfigMap',
        namespace: 'app',
        name: `o-${i}`,
        syncPhase: 'Sync',
        wave: i % 3,
        message: `line\n"${i}" \u2028`,
      }),
    ),
  },
});

describe('operationStateJson', () => {
  it.each([0, 1, 256, 1000])(
    'when a state of %i results is written, then it parses back to what JSON.stringify gives',
    async (n) => {
      const given = state(n);
      const written = await operationStateJson(given);

      expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(given)));
    },
  );
});
