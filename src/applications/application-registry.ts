/**
 * The registry of known Applications: loaded from the sources in wavesync.yaml, looked up by name for `/sync`,
 * reloaded on demand (a failed reload keeps the previous Applications).
 */
import type { Application, ApplicationDestination, ApplicationSource } from '../domain/index.js';
import { BotError } from '../domain/index.js';
import { closestNames } from '../engine/index.js';
import type { Settings } from '../settings/index.js';
import { environmentOf } from './application-environment.js';
import { applicationWarnings } from './application-warnings.js';
import { applicationSetOf } from './applicationsets/generate-applications.js';
import { removalDecision } from './applicationsets/removal-policy.js';
import {
  type ApplicationSetSummary,
  type ApplicationSourceDeps,
  loadApplicationsAndSets,
} from './load-application-sources.js';
import { undeclaredPlugins } from './render/render-plugin.js';

/** What chat commands show about an Application. */
interface ApplicationDescription {
  name: string;
  environment?: string;
  project: string;
  destination: ApplicationDestination;
  source: ApplicationSource;
  /** Where it was read from (file:line). */
  origin: string;
  /** `spec.syncPolicy.automated` is set (Argo CD refuses a rollback then). */
  automated?: true;
  /** The ApplicationSet that generated it (its controller ownerReference), if any. */
  applicationSet?: string;
}

export interface ApplicationRegistry {
  /** All Applications, sorted by name. */
  list(): Application[];
  /** All names, sorted. */
  names(): string[];
  /**
   * The Application `name` — also one its ApplicationSet stopped generating within the hour whose resources are being
   * deleted (its deletion job resolves it). @throws BotError('application_not_found') suggesting the closest names.
   */
  get(name: string): Application;
  /** The Application `name`, or undefined. */
  find(name: string): Application | undefined;
  describe(name: string): ApplicationDescription | undefined;
  /** Read the sources again; on failure the previous Applications stay and the error is thrown. */
  reload(): Promise<void>;
  /** The ApplicationSet `name` as the last read generated it, or undefined. */
  applicationSet(name: string): ApplicationSetSummary | undefined;
  /** Every ApplicationSet of the last read. */
  applicationSets(): ApplicationSetSummary[];
  /**
   * Called after a read that no longer generates Applications an ApplicationSet generated before (a git directory
   * deleted, an element removed, the ApplicationSet itself gone): each with the ApplicationSet as last read.
   */
  onGeneratedRemoved(listener: (removed: RemovedGeneratedApplication[]) => void): void;
  /**
   * Pin a removed generated Application that `get` still resolves to `revision` (the commit it was last synced at):
   * its source may be gone at its targetRevision, and its deletion hooks are rendered from what was deployed.
   */
  pinRetiring(name: string, revision: string): void;
}

/** A generated Application the last read no longer generates. */
export interface RemovedGeneratedApplication {
  /** The Application as it was last generated (its finalizers say whether Argo CD would delete its resources). */
  application: Application;
  /** Its ApplicationSet: as this read generated it, or as the previous one did when it is gone. */
  applicationSet: ApplicationSetSummary;
  /** The ApplicationSet itself is gone (Argo CD deletes its Applications through their ownerReference). */
  applicationSetRemoved: boolean;
}

export type ApplicationRegistryDeps = ApplicationSourceDeps;

/**
 * Load the Applications of `settings` and return the registry.
 * @throws the errors of loadApplicationSources (invalid manifests, unreadable sources).
 */
export async function createApplicationRegistry(
  settings: Settings,
  deps: ApplicationRegistryDeps = {},
): Promise<ApplicationRegistry> {
  const first = await loadApplicationsAndSets(settings, deps);
  const loaded = first.applications;
  // Warned once at load (not on every refresh): an unknown sync option does nothing, as in Argo CD.
  for (const { file, line, message } of loaded.flatMap(applicationWarnings)) {
    deps.logger?.warn({ file, line }, message);
  }
  // Said at load too (its sync fails with the same words): a plugin wavesync.yaml does not declare.
  for (const app of loaded) {
    for (const { path, name } of undeclaredPlugins(app, settings.plugins ?? [])) {
      deps.logger?.warn(
        { application: app.name, origin: app.origin },
        `Application ${app.name}: ${path} ${name} is not declared under plugins: in wavesync.yaml; its syncs will fail`,
      );
    }
  }
  let byName = index(loaded);
  let sets = first.applicationSets;
  const listeners: ((removed: RemovedGeneratedApplication[]) => void)[] = [];
  const retiring = new Map<string, { application: Application; until: number }>();
  const find = (name: string) => byName.get(name);
  return {
    list: () => [...byName.values()],
    names: () => [...byName.keys()],
    find,
    get(name) {
      // An Application its ApplicationSet just stopped generating, whose resources are being deleted: the deletion
      // job (and its plan) resolve it here; find, list and describe no longer know it.
      const app = find(name) ?? retiring.get(name)?.application;
      if (app) return app;
      throw new BotError('application_not_found', notFoundMessage(name, [...byName.keys()]));
    },
    describe(name) {
      const app = find(name);
      return app && describeApplication(app);
    },
    async reload() {
      const next = await loadApplicationsAndSets(settings, deps);
      const removed = removedGenerated(byName, sets, next);
      const now = Date.now();
      for (const [name, r] of retiring)
        if (r.until < now || next.applications.some((a) => a.name === name)) retiring.delete(name);
      for (const r of removed) {
        if (removalDecision(r).deleteResources)
          retiring.set(r.application.name, { application: r.application, until: now + RETIRING_MS });
      }
      byName = index(next.applications);
      sets = next.applicationSets;
      if (removed.length > 0) for (const listener of listeners) listener(removed);
    },
    onGeneratedRemoved(listener) {
      listeners.push(listener);
    },
    pinRetiring(name, revision) {
      const entry = retiring.get(name);
      if (!entry || entry.application.sources || entry.application.source.repoURL === '') return;
      const { application } = entry;
      entry.application = { ...application, source: { ...application.source, targetRevision: revision } };
    },
    applicationSet: (name) => sets.find((s) => s.name === name),
    applicationSets: () => [...sets],
  };
}

/** How long `get` still resolves a removed generated Application whose resources are deleted (its deletion job). */
const RETIRING_MS = 60 * 60 * 1000;

/** The generated Applications of `before` that `next` no longer has, with their ApplicationSet. */
function removedGenerated(
  before: ReadonlyMap<string, Application>,
  setsBefore: readonly ApplicationSetSummary[],
  next: { applications: Application[]; applicationSets: ApplicationSetSummary[] },
): RemovedGeneratedApplication[] {
  const now = new Set(next.applications.map((a) => a.name));
  return [...before.values()].flatMap((application) => {
    const setName = applicationSetOf(application);
    if (setName === undefined || now.has(application.name)) return [];
    const current = next.applicationSets.find((s) => s.name === setName);
    const previous = setsBefore.find((s) => s.name === setName);
    const applicationSet = current ?? previous;
    if (!applicationSet) return [];
    return [{ application, applicationSet, applicationSetRemoved: current === undefined }];
  });
}

function index(apps: Application[]): Map<string, Application> {
  return new Map(apps.map((a) => [a.name, a]));
}

/** The message UX.md shows: `No application named "gustbook". Did you mean guestbook?` */
function notFoundMessage(name: string, known: string[]): string {
  const close = closestNames(name, known);
  if (close.length > 0) return `No application named "${name}". Did you mean ${close.join(', ')}?`;
  return known.length === 0
    ? `No application named "${name}". No applications are configured.`
    : `No application named "${name}".`;
}

/** The description of `app` shown by chat commands. */
function describeApplication(app: Application): ApplicationDescription {
  const environment = environmentOf(app);
  const applicationSet = applicationSetOf(app);
  return {
    name: app.name,
    ...(environment === undefined ? {} : { environment }),
    project: app.project,
    destination: app.destination,
    // A multi-source Application is shown by its first source with revisions (so chat's local-folder checks, which
    // refuse --revision and rollback, apply only when every source is a local folder).
    source: app.sources?.find((s) => s.repoURL !== '') ?? app.source,
    origin: app.origin,
    ...(app.syncPolicy?.automated ? { automated: true as const } : {}),
    ...(applicationSet === undefined ? {} : { applicationSet }),
  };
}
