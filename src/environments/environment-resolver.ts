/**
 * Which environment an Application belongs to: the `wavesync.io/environment` label (or annotation) when set,
 * else the first environment in wavesync.yaml with a `destinations` rule matching spec.destination (every field
 * the rule names must be equal). An Application in no environment has no approval rules.
 */
import { ENVIRONMENT_LABEL, environmentOf } from '../applications/index.js';
import type { Application } from '../domain/index.js';
import { BotError } from '../domain/index.js';
import type { DestinationRule, EnvironmentSettings, Settings } from '../settings/index.js';

export interface ResolvedEnvironment {
  name: string;
  settings: EnvironmentSettings;
}

type EnvironmentsOnly = Pick<Settings, 'environments'>;

function matchesDestination(rule: DestinationRule, app: Application): boolean {
  const d = app.destination;
  return (
    (rule.server === undefined || rule.server === d.server) &&
    (rule.name === undefined || rule.name === d.name) &&
    (rule.namespace === undefined || rule.namespace === d.namespace)
  );
}

/** The environment name of `app` (label/annotation first, then destination rules), or undefined. */
export function environmentNameOf(settings: EnvironmentsOnly, app: Application): string | undefined {
  const named = environmentOf(app);
  if (named !== undefined) return named;
  for (const [name, env] of Object.entries(settings.environments)) {
    if (env.destinations.some((rule) => matchesDestination(rule, app))) return name;
  }
  return undefined;
}

/**
 * The environment of `app` with its settings, or undefined when it belongs to none.
 * @throws BotError('invalid_config') when its label names an environment wavesync.yaml does not define.
 */
export function environmentFor(
  settings: EnvironmentsOnly,
  app: Application,
): ResolvedEnvironment | undefined {
  const name = environmentNameOf(settings, app);
  if (name === undefined) return undefined;
  const env = settings.environments[name];
  if (!env) throw new BotError('invalid_config', unknownEnvironmentMessage(settings, app, name));
  return { name, settings: env };
}

/**
 * Check at start-up (and after a registry reload) that every Application's environment label names an
 * environment of wavesync.yaml.
 * @throws BotError('invalid_config') listing each Application, where it was read, the key and the known names.
 */
export function assertKnownEnvironments(settings: EnvironmentsOnly, apps: readonly Application[]): void {
  const problems = apps
    .filter((app) => {
      const name = environmentOf(app);
      return name !== undefined && settings.environments[name] === undefined;
    })
    .map((app) => unknownEnvironmentMessage(settings, app, environmentOf(app) ?? ''));
  if (problems.length > 0) throw new BotError('invalid_config', problems.join('\n'));
}

function unknownEnvironmentMessage(settings: EnvironmentsOnly, app: Application, name: string): string {
  const known = Object.keys(settings.environments);
  return (
    `${app.origin}: Application ${app.name}: ${ENVIRONMENT_LABEL}: unknown environment "${name}" ` +
    `(wavesync.yaml environments: ${known.length > 0 ? known.join(', ') : 'none defined'})`
  );
}
