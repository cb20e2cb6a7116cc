/**
 * The pin of a promoted stage, for whoever would sync it without a person asking: drift detection's comparison and
 * self-heal (src/main/drift-wiring.ts) and automated syncs on new commits render the pinned revision instead of the
 * branch head while a pin holds (docs/promotion.md, "Pinned").
 */
import type { PromotionStore } from './stage-records.js';

/** The revision a promotion pinned `application` at, or undefined when it is not pinned. */
export async function pinnedRevision(
  store: Pick<PromotionStore, 'pin'>,
  application: string,
): Promise<string | undefined> {
  return (await store.pin(application))?.revision;
}
