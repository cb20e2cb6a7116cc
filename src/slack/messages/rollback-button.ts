/**
 * The **Roll back** button of a failed sync's summary and of a failure notice: `/sync rollback <app>` to the last
 * Succeeded history entry before the failed operation. Its value only locates what to roll back
 * (`{"a":"<app>","j":"<failed job id>"}`); who clicks, and where, come from the signed payload and are authorized
 * like the command (action `rollback`).
 */
import { type ActionsBlock, actions, button } from './block.js';

/** Action id of the Roll back button. */
export const ROLLBACK_ACTION_ID = 'wavesync_rollback';

/** What a Roll back button points at: the Application, and the failed job whose predecessor is the target. */
export interface RollbackButtonValue {
  application: string;
  jobId?: string;
}

export function rollbackButtonBlock(value: RollbackButtonValue): ActionsBlock {
  const json = JSON.stringify({ a: value.application, ...(value.jobId ? { j: value.jobId } : {}) });
  return actions(button(ROLLBACK_ACTION_ID, 'Roll back', json));
}

/** The button's value, or undefined when it is not one of ours (a forged or old value). */
export function decodeRollbackButtonValue(value: string | undefined): RollbackButtonValue | undefined {
  try {
    const parsed = JSON.parse(value ?? '') as { a?: unknown; j?: unknown };
    if (typeof parsed.a !== 'string' || parsed.a === '') return undefined;
    return {
      application: parsed.a,
      ...(typeof parsed.j === 'string' && parsed.j ? { jobId: parsed.j } : {}),
    };
  } catch {
    return undefined;
  }
}
