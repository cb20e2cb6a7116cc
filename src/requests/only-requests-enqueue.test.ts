import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');

/** Every product source file (tests excluded), relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(SRC, full)] : [];
  });
}

/** A call of enqueueSync (`x.enqueueSync(`, `x?.enqueueSync(`), or a way around one (destructuring, indexing). */
const ENQUEUE =
  /\??\.\s*enqueueSync\s*\(|\{[^}]*\benqueueSync\b[^}]*\}\s*=[^=>]|\[\s*['"`]enqueueSync['"`]\s*\]/;

function enqueuers(): string[] {
  return sources().filter((file) => ENQUEUE.test(readFileSync(path.join(SRC, file), 'utf8')));
}

/** An ask naming an origin other than `person` (`origin: 'self-heal'`, …): only src/requests builds one. */
const OTHER_ORIGIN = /\borigin\s*:\s*(['"`])(approved|self-heal|app-of-apps-child|retry|automated)\1/;

/** Product modules outside src/requests that name an origin other than `person`. */
function otherOriginAskers(): string[] {
  return sources().filter(
    (file) =>
      !file.startsWith(`requests${path.sep}`) &&
      OTHER_ORIGIN.test(readFileSync(path.join(SRC, file), 'utf8')),
  );
}

describe('src/requests is the one path onto the queue', () => {
  it('no module outside src/requests calls enqueueSync: every sync goes through requestSync', () => {
    const found = enqueuers();

    expect(found.filter((file) => !file.startsWith(`requests${path.sep}`))).toEqual([]);
    // The guard sees the calls it guards: requestSync's own.
    expect(found).toContain(path.join('requests', 'request-sync.ts'));
  });
});

describe('a sync with another origin than person is asked for only inside src/requests', () => {
  it('no module outside src/requests names origin approved, self-heal or app-of-apps-child', () => {
    expect(otherOriginAskers()).toEqual([]);
    // The reviewer's probe (a Slack action queueing a child with no check) is what the pattern finds.
    expect(OTHER_ORIGIN.test("requestSync({ queue }, { origin: 'app-of-apps-child', request, jobId })")).toBe(
      true,
    );
    expect(OTHER_ORIGIN.test("{ origin: 'person', request, context }")).toBe(false);
  });
});

/**
 * A SyncRequest written with an App of Apps chain (`appOfApps: …`, or shorthand `{ …, appOfApps }`): the worker
 * builds that child's Application from the manifests in the chain, so only the App of Apps runtime writes one
 * (queue/ declares it, requests/ queues it). Not matched: reading it (`request.appOfApps`), declaring it
 * (`appOfApps?: …`), destructuring it (`{ appOfApps } =`), and a zod schema's key (`appOfApps: z…`, the settings).
 */
const CHAIN_WRITTEN = /(?<![.\w?])['"`]?appOfApps['"`]?\s*:(?!\s*z\b)|[{,]\s*appOfApps\s*(?:,|\}(?!\s*=))/;

/** Folders that may write a SyncRequest's appOfApps. */
const CHAIN_WRITERS = ['app-of-apps', 'queue', 'requests'].map((folder) => `${folder}${path.sep}`);

function chainWriters(): string[] {
  return sources().filter((file) => CHAIN_WRITTEN.test(readFileSync(path.join(SRC, file), 'utf8')));
}

describe('an App of Apps chain is written only by the App of Apps runtime', () => {
  it('no module outside src/app-of-apps, src/queue and src/requests writes appOfApps into a request', () => {
    const found = chainWriters();

    expect(found.filter((file) => !CHAIN_WRITERS.some((folder) => file.startsWith(folder)))).toEqual([]);
    // The guard sees what it guards: the driver's own children.
    expect(found).toContain(path.join('app-of-apps', 'app-of-apps-driver.ts'));
    // The reviewer's probe (a person's /sync carrying a chain) is what the pattern finds, in both spellings.
    expect(
      CHAIN_WRITTEN.test("const request = { application: 'guestbook', appOfApps: { parent: 'root' } }"),
    ).toBe(true);
    expect(CHAIN_WRITTEN.test('const request = { ...input, appOfApps };')).toBe(true);
    expect(CHAIN_WRITTEN.test("{ 'appOfApps': chain }")).toBe(true);
    expect(CHAIN_WRITTEN.test('const parent = request.appOfApps?.parentTarget;')).toBe(false);
    expect(CHAIN_WRITTEN.test('  appOfApps?: AppOfAppsChain;')).toBe(false);
    expect(CHAIN_WRITTEN.test('const { appOfApps } = request;')).toBe(false);
    expect(CHAIN_WRITTEN.test('  appOfApps: z')).toBe(false);
  });
});
