/** The one check of `plan`, `sync` and `diff`: they act on a manifest path or on `--app NAME`, never both. */
import { BotError } from '../domain/index.js';

/** @throws BotError invalid_command when both a path and `--app` were given. */
export function rejectPathAndApp(target: string | undefined, app: string | undefined): void {
  if (target !== undefined && app !== undefined) {
    throw new BotError('invalid_command', `give a path or --app, not both (got ${target} and --app ${app})`);
  }
}
