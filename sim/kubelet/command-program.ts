/**
 * The container command convention: a container's `command` + `args` are interpreted, not run.
 * - `sleep N` waits N simulated seconds (suffixes s, m, h, d; `infinity`),
 * - `exit N` ends the container with exit code N,
 * - `echo TEXT` writes TEXT to the container log (`$VAR`/`${VAR}` expanded from the container env),
 * - `true` / `false` succeed / fail (status 0 / 1),
 * - `sh -c "a; b && c || d"` (also bash/ash, and newlines) chains them with shell semantics, `set -e` honoured,
 * - anything else succeeds after DEFAULT_STEP_SECONDS.
 * The exit code is the `exit` value, else the status of the last command run.
 * No command at all: `runsForever` for long-running pods (restartPolicy Always), else a DEFAULT_STEP_SECONDS run.
 */

export const DEFAULT_STEP_SECONDS = 1;

interface LogAt {
  /** Simulated seconds after the container starts. */
  at: number;
  line: string;
}

export interface ContainerProgram {
  /** Total run time in simulated seconds (Infinity when it never ends). */
  seconds: number;
  exitCode: number;
  logs: LogAt[];
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export function programOf(
  argv: string[],
  env: Record<string, string>,
  runsForever: boolean,
): ContainerProgram {
  if (argv.length === 0) {
    return runsForever
      ? { seconds: Number.POSITIVE_INFINITY, exitCode: 0, logs: [] }
      : { seconds: DEFAULT_STEP_SECONDS, exitCode: 0, logs: [] };
  }
  const shell = SHELLS.has((argv[0] ?? '').split('/').pop() ?? '');
  const dashC = argv.findIndex((a, i) => i > 0 && /^-\w*c\w*$/.test(a));
  if (shell && dashC > 0) return runScript(argv[dashC + 1] ?? '', env);
  return runScript(argv.map(quote).join(' '), env);
}

function quote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

interface Segment {
  words: string[];
  /** Operator that precedes this command: `;` (always), `&&` (after success), `||` (after failure). */
  op: ';' | '&&' | '||';
}

function runScript(script: string, env: Record<string, string>): ContainerProgram {
  const logs: LogAt[] = [];
  let clock = 0;
  let status = 0;
  let errexit = false;
  const segments = parseScript(script);
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] as Segment;
    if ((segment.op === '&&' && status !== 0) || (segment.op === '||' && status === 0)) continue;
    const [name = '', ...args] = segment.words.map((w) => expand(w, env));
    if (name === '') continue;
    if (name === 'exit') return { seconds: clock, exitCode: Number(args[0] ?? status) || 0, logs };
    if (name === 'set') {
      if (args.some((a) => /^-\w*e/.test(a))) errexit = true;
      status = 0;
    } else if (name === 'sleep') {
      const seconds = parseDuration(args[0] ?? '0');
      if (seconds === Number.POSITIVE_INFINITY) return { seconds, exitCode: 0, logs };
      clock += seconds;
      status = Number.isNaN(seconds) ? 1 : 0;
    } else if (name === 'echo') {
      logs.push({ at: clock, line: args.filter((a, k) => !(k === 0 && a === '-n')).join(' ') });
      status = 0;
    } else if (name === 'true' || name === ':') status = 0;
    else if (name === 'false') status = 1;
    else {
      clock += DEFAULT_STEP_SECONDS;
      status = 0;
    }
    const next = segments[i + 1];
    const guarded = next !== undefined && next.op !== ';';
    if (errexit && status !== 0 && !guarded) return { seconds: clock, exitCode: status, logs };
  }
  return { seconds: clock, exitCode: status, logs };
}

function parseDuration(text: string): number {
  if (text === 'infinity' || text === 'inf') return Number.POSITIVE_INFINITY;
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * (UNITS[match[2] || 's'] ?? 1);
}

function expand(word: string, env: Record<string, string>): string {
  if (word.startsWith('\u0000')) return word.slice(1);
  return word.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (_m, a: string | undefined, b: string | undefined) => env[a ?? b ?? ''] ?? '',
  );
}

/** Split a script into commands and operators, honouring single and double quotes. */
function parseScript(script: string): Segment[] {
  const segments: Segment[] = [];
  let words: string[] = [];
  let word = '';
  let hasWord = false;
  let literal = false;
  let op: Segment['op'] = ';';
  const endWord = () => {
    if (hasWord) words.push(literal ? `\u0000${word}` : word);
    word = '';
    hasWord = false;
    literal = false;
  };
  const endCommand = (nextOp: Segment['op']) => {
    endWord();
    if (words.length > 0) segments.push({ words, op });
    words = [];
    op = nextOp;
  };
  for (let i = 0; i < script.length; i += 1) {
    const ch = script[i] as string;
    const pair = script.slice(i, i + 2);
    if (pair === '&&' || pair === '||') {
      endCommand(pair);
      i += 1;
    } else if (ch === ';' || ch === '\n') endCommand(';');
    else if (ch === ' ' || ch === '\t') endWord();
    else if (ch === "'" || ch === '"') {
      const close = script.indexOf(ch, i + 1);
      const end = close < 0 ? script.length : close;
      word += script.slice(i + 1, end);
      hasWord = true;
      literal = literal || ch === "'";
      i = end;
    } else if (ch === '#' && !hasWord) {
      const eol = script.indexOf('\n', i);
      i = eol < 0 ? script.length : eol - 1;
    } else {
      word += ch;
      hasWord = true;
    }
  }
  endCommand(';');
  return segments;
}
