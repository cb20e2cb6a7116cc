/** The fake Slack's modals: views.open (with Slack's trigger_id rules) and views.update, each view validated. */
import type { Args } from './fake-slack-http.js';
import { modalProblems } from './slack-block-rules.js';

/** A modal opened with views.open (and its latest views.update). */
export interface FakeView {
  id: string;
  triggerId: string;
  view: Record<string, unknown>;
  /** How many times views.update replaced it. */
  updates: number;
}

/** Slack's trigger_id is valid for 3 s after the interaction, once. */
const TRIGGER_TTL_MS = 3000;

export class FakeViews {
  private readonly opened = new Map<string, FakeView>();
  private readonly usedTriggers = new Set<string>();

  /** Modals opened by views.open, in order (with their latest content). */
  all(): FakeView[] {
    return [...this.opened.values()];
  }

  /**
   * views.open: the trigger_id must come from an interaction (the signed client's `trigger.<ms>.<n>`), be at most
   * 3 s old (`expired_trigger_id`) and not used before (`exchanged_trigger_id`); the view must be a valid modal.
   */
  open(a: Args): Record<string, unknown> {
    const trigger = typeof a.trigger_id === 'string' ? a.trigger_id : '';
    const issued = /^trigger\.(\d+)(\.\d+)?$/.exec(trigger);
    if (!issued) return { ok: false, error: 'invalid_trigger_id' };
    if (Date.now() - Number(issued[1]) > TRIGGER_TTL_MS) return { ok: false, error: 'expired_trigger_id' };
    if (this.usedTriggers.has(trigger)) return { ok: false, error: 'exchanged_trigger_id' };
    const problem = viewProblem(a.view);
    if (problem) return problem;
    this.usedTriggers.add(trigger);
    const id = `V${String(this.opened.size + 1).padStart(8, '0')}`;
    const view = a.view as Record<string, unknown>;
    this.opened.set(id, { id, triggerId: trigger, view, updates: 0 });
    return { ok: true, view: { id, ...view } };
  }

  /** views.update of an open view (`not_found` otherwise). */
  update(a: Args): Record<string, unknown> {
    const existing = this.opened.get(String(a.view_id ?? ''));
    if (!existing) return { ok: false, error: 'not_found' };
    const problem = viewProblem(a.view);
    if (problem) return problem;
    existing.view = a.view as Record<string, unknown>;
    existing.updates += 1;
    return { ok: true, view: { id: existing.id, ...existing.view } };
  }
}

function viewProblem(view: unknown): Record<string, unknown> | undefined {
  const problems = modalProblems(view);
  return problems.length
    ? { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } }
    : undefined;
}
