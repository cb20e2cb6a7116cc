/**
 * Errors for the bot's expected failures. Outcomes of a sync (a hook failed, a resource Degraded) are data in
 * OperationState, never exceptions. Match on `instanceof` or `code`, never on message text.
 */

export type BotErrorCode =
  | 'invalid_manifest'
  | 'invalid_config'
  | 'application_not_found'
  | 'invalid_command'
  | 'not_authorized'
  | 'sync_already_running'
  | 'not_queued'
  | 'render_failed'
  | 'too_large'
  | 'revision_not_found'
  | 'cluster_error'
  | 'slack_unreachable';

/** A user-facing error with a stable code; `message` is safe to show in Slack. */
export class BotError extends Error {
  readonly code: BotErrorCode;
  /** How to fix it, when there is one thing to do ("pass --kubeconfig <file> or set KUBECONFIG"). */
  readonly fix: string | undefined;
  /**
   * A tool's raw output (git's, kustomize's, a plugin's standard error) when the message ends with it
   * (`<what failed>: <detail>`): the CLI prints the cause on one line and this indented below it.
   */
  readonly detail: string | undefined;

  constructor(
    code: BotErrorCode,
    message: string,
    options?: { cause?: unknown; fix?: string; detail?: string },
  ) {
    super(message, options);
    this.name = 'BotError';
    this.code = code;
    this.fix = options?.fix;
    this.detail = options?.detail;
  }
}

/** A manifest that cannot be used: names the file and (1-based) line. */
export class ManifestError extends BotError {
  readonly file: string;
  readonly line: number | undefined;
  /** What is wrong, without the place (the message is `file:line: problem`). */
  readonly problem: string;

  constructor(
    file: string,
    line: number | undefined,
    problem: string,
    options?: { cause?: unknown; fix?: string },
  ) {
    super('invalid_manifest', `${file}${line === undefined ? '' : `:${line}`}: ${problem}`, options);
    this.name = 'ManifestError';
    this.file = file;
    this.line = line;
    this.problem = problem;
  }
}
