/**
 * The OperationState as JSON text, made in slices: it is persisted after every pass, and `JSON.stringify` of a
 * state with 20,000 results (5.6 MB of text; 14 MB at 50,000) held the event loop in one piece each time. The
 * results are written 256 at a time, yielding to the event loop (setImmediate) once 20 ms of work are done; the
 * text is what `JSON.stringify(state)` gives, but for key order inside `syncResult`.
 */
import { randomUUID } from 'node:crypto';
import type { OperationState } from '../domain/index.js';

const RESULTS_PER_PIECE = 256;
const SLICE_MS = 20;

export async function operationStateJson(state: OperationState): Promise<string> {
  const { resources } = state.syncResult;
  const pieces: string[] = [];
  let started = performance.now();
  for (let i = 0; i < resources.length; i += RESULTS_PER_PIECE) {
    if (performance.now() - started >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = performance.now();
    }
    pieces.push(JSON.stringify(resources.slice(i, i + RESULTS_PER_PIECE)).slice(1, -1));
  }
  // A marker no string of the state can hold (a fresh UUID), replaced by the results' text.
  const marker = `wavesync-results-${randomUUID()}`;
  const shell = JSON.stringify({ ...state, syncResult: { ...state.syncResult, resources: marker } });
  return shell.replace(`"${marker}"`, () => `[${pieces.join(',')}]`);
}
