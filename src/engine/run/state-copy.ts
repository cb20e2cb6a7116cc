/**
 * A pass's own copy of the OperationState, made in time slices. `structuredClone` of a state with 20,000 results
 * held the event loop for 0.05–0.2 s of CPU on every pass (0.2–0.5 s at 50,000): the results are copied here one
 * by one between yields. A ResourceResult holds only strings, numbers and `logTail` (strings), so a spread and a
 * copy of `logTail` are a deep copy; the rest of the state (the operation, the sources) is small and cloned whole.
 * The copy's results are indexed by task in slices too (the pass's first `resultOf` would do it in one piece).
 */
import type { OperationState, ResourceResult } from '../../domain/index.js';
import { indexResultsSliced } from '../task-results.js';
import { TimeSlice } from '../time-slice.js';

/** A deep copy of `previous` (`previous` is not changed). */
export async function copyOperationState(
  previous: OperationState,
  slice: TimeSlice = new TimeSlice(),
): Promise<OperationState> {
  const { syncResult, ...rest } = previous;
  const { resources, ...result } = syncResult;
  const copied: ResourceResult[] = [];
  for (const r of resources) {
    if (slice.due()) await slice.pause();
    copied.push(r.logTail === undefined ? { ...r } : { ...r, logTail: [...r.logTail] });
  }
  await indexResultsSliced(copied, slice);
  return { ...structuredClone(rest), syncResult: { ...structuredClone(result), resources: copied } };
}
