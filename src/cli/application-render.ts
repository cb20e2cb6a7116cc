/**
 * What every `--app` command (plan, diff, sync) does around rendering an Application of wavesync.yaml:
 * - before anything is fetched, the checks that need no repository: a `plugin.name` wavesync.yaml does not declare
 *   is bad input (exit 2) naming the Application's file:line, not a failure after a git fetch;
 * - when the render fails (an unreachable repository, a failed kustomize build or plugin), one line says which
 *   Application and source and what failed, the tool's raw output follows indented, and the Application's field
 *   warnings are printed before it (they were lost with the render).
 */
import type { ApplicationRenderer, RenderedApplication } from '../applications/index.js';
import { type Application, BotError, sourcesOf } from '../domain/index.js';
import type { Settings } from '../settings/index.js';

/** A render that failed, for the CLI: the cause on one line, the raw detail and the warnings to print with it. */
class ApplicationRenderError extends BotError {
  /** `warning: file:line: message` lines printed before the error (the Application's field warnings). */
  readonly warnings: string[];

  constructor(message: string, options: { cause: unknown; detail?: string; warnings: string[] }) {
    const code = options.cause instanceof BotError ? options.cause.code : 'render_failed';
    super(code, message, {
      cause: options.cause,
      ...(options.detail === undefined ? {} : { detail: options.detail }),
      ...(options.cause instanceof BotError && options.cause.fix ? { fix: options.cause.fix } : {}),
    });
    this.warnings = options.warnings;
  }
}

/**
 * @throws BotError invalid_manifest when a source names a plugin wavesync.yaml does not declare (the registry
 *   warns about it at load; here, before a fetch, it is the command's input that is wrong).
 */
export async function checkBeforeRender(
  app: Application,
  settings: Pick<Settings, 'plugins'>,
): Promise<void> {
  const { undeclaredPlugins, pluginNameOf } = await import('../applications/index.js');
  const [first] = undeclaredPlugins(app, settings.plugins ?? []);
  if (!first) return;
  const declared = (settings.plugins ?? []).map(pluginNameOf).join(', ') || 'none';
  throw new BotError(
    'invalid_manifest',
    `Application ${app.name}: ${first.path} ${first.name} is not declared under plugins: in wavesync.yaml (${app.origin})`,
    { fix: `declare it under plugins: as Argo CD's plugin.yaml declares it (declared: ${declared})` },
  );
}

/** `git https://github.com/x/y.git path apps/web at main`, `local folder apps/web`, `chart redis 17.x from …`. */
function describeSource(app: Application): string {
  const sources = sourcesOf(app);
  const one = (s: (typeof sources)[number]) => {
    if (s.repoURL === '') return `local folder ${s.path ?? '.'}`;
    if (s.chart) return `chart ${s.chart} ${s.targetRevision ?? ''} from ${s.repoURL}`.replace('  ', ' ');
    return `git ${s.repoURL} path ${s.path ?? '.'} at ${s.targetRevision || 'HEAD'}`;
  };
  return sources.length === 1 ? `source ${one(sources[0]!)}` : `sources ${sources.map(one).join('; ')}`;
}

/**
 * Render `app` as the worker does; a failure becomes an ApplicationRenderError: `cannot render Application web
 * (apps/web.yaml:1), source git … path … at main: git fetch of … failed`, the tool's output as its detail, and the
 * Application's field warnings.
 */
export async function renderForCommand(
  renderer: Pick<ApplicationRenderer, 'renderApplication'>,
  app: Application,
  options: { revision?: string },
): Promise<RenderedApplication> {
  try {
    return await renderer.renderApplication(app, options);
  } catch (error) {
    if (!(error instanceof BotError) || error.code === 'too_large') throw error;
    const { applicationWarnings } = await import('../applications/index.js');
    const warnings = applicationWarnings(app).map((w) => `warning: ${w.file}:${w.line}: ${w.message}`);
    const detail = error.detail;
    const full = error.message;
    const cause =
      detail !== undefined && full.endsWith(`: ${detail}`) ? full.slice(0, -(detail.length + 2)) : full;
    const oneLine = detail === undefined && cause.includes('\n') ? cause.split('\n')[0]! : cause;
    const rest = detail ?? (cause.includes('\n') ? cause.split('\n').slice(1).join('\n') : undefined);
    throw new ApplicationRenderError(
      `cannot render Application ${app.name}, ${describeSource(app)}: ${oneLine} (${app.origin})`,
      { cause: error, warnings, ...(rest ? { detail: rest } : {}) },
    );
  }
}
