/**
 * The reporter's Slack-call budget for one operation: waves + hooks + 3 (issue #6: a sync of 40 waves must
 * not flood the thread). Hook outcomes, the final summary, a flush before a broadcast failure summary and the
 * final header update are reserved; wave replies and intermediate header updates spend only what is left, and
 * otherwise wait to ride along with the next reserved message.
 */
export class CallBudget {
  private limit = Number.POSITIVE_INFINITY;
  private used = 0;
  private plannedHooks = 0;
  private postedHooks = 0;

  /** From OperationStarted: the planned steps and hooks (SyncFail excluded). */
  plan(waves: number, hooks: number): void {
    this.limit = waves + hooks + 3;
    this.plannedHooks = hooks;
  }

  /** SyncFail hooks join the plan when the SyncFail phase starts. */
  addHooks(hooks: number): void {
    this.limit += hooks;
    this.plannedHooks += hooks;
  }

  /** Record `calls` made, carrying `hookOutcomes` hook outcomes. */
  spend(calls: number, hookOutcomes = 0): void {
    this.used += calls;
    this.postedHooks += hookOutcomes;
  }

  /** May an optional call (wave reply, intermediate header update) be made without eating the reserve? */
  canSpendOptional(): boolean {
    return this.used + 1 + this.reserve() <= this.limit;
  }

  get calls(): number {
    return this.used;
  }

  get max(): number {
    return this.limit;
  }

  private reserve(): number {
    return Math.max(0, this.plannedHooks - this.postedHooks) + 3;
  }
}
