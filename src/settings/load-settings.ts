/**
 * Read and validate wavesync.yaml. Every problem is reported at once, each naming the file, the line and the key
 * path (`wavesync.yaml:4: applications[0].gti: unknown key`).
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { BotError } from '../domain/index.js';
import { type Settings, SettingsSchema } from './settings-schema.js';
import { describeIssues } from './yaml-issues.js';

/**
 * Load `file` (absolute or relative to the working directory).
 * @throws BotError('invalid_config') when the file is missing or unreadable (naming it, with how to fix), not YAML,
 *   or breaks the schema.
 */
export async function loadSettings(file: string): Promise<Settings> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const what = missing
      ? 'settings file not found'
      : `cannot read the settings file: ${(error as Error).message}`;
    throw new BotError('invalid_config', `${what} (${absolute})`, {
      cause: error,
      fix: 'check the path given to --config or WAVESYNC_CONFIG; docs/applications.md shows a wavesync.yaml to start from',
    });
  }
  return parseSettings(text, absolute);
}

/**
 * Validate settings text read from `file` (used for messages and as the base of relative paths).
 * An empty document means "all defaults".
 * @throws BotError('invalid_config') naming file, line and key of every problem.
 */
export function parseSettings(text: string, file: string): Settings {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map(
      (e) => `${file}:${e.linePos?.[0].line ?? '?'}: ${e.message.split('\n')[0]}`,
    );
    throw new BotError('invalid_config', `invalid settings:\n${problems.join('\n')}`);
  }
  const parsed = SettingsSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const problems = describeIssues(parsed.error.issues, file, doc, lineCounter);
    throw new BotError('invalid_config', `invalid settings:\n${problems.join('\n')}`);
  }
  return { ...parsed.data, file, baseDir: path.dirname(file) };
}

/** Settings with every default and no application sources, rooted at `baseDir`. */
export function defaultSettings(baseDir: string): Settings {
  return { ...SettingsSchema.parse({}), file: path.join(baseDir, 'wavesync.yaml'), baseDir };
}

/** Resolve a path written in wavesync.yaml: `~/` expands to the home directory, relative paths use `baseDir`. */
export function resolveSettingsPath(settings: Pick<Settings, 'baseDir'>, written: string): string {
  if (written === '~' || written.startsWith('~/')) return path.join(homedir(), written.slice(1));
  return path.resolve(settings.baseDir, written);
}
