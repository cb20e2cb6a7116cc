import { describe, expect, it } from 'vitest';
import { DEFAULT_STEP_SECONDS, programOf } from './command-program.js';

describe('the container command convention', () => {
  it('sleep N waits N seconds (with unit suffixes) and succeeds', () => {
    expect(programOf(['sleep', '5'], {}, false)).toEqual({ seconds: 5, exitCode: 0, logs: [] });
    expect(programOf(['/bin/sh', '-c'].concat(['sleep 2m']), {}, false).seconds).toBe(120);
    expect(programOf(['sleep', 'infinity'], {}, false).seconds).toBe(Number.POSITIVE_INFINITY);
  });

  it('exit N ends with code N; true/false give 0/1', () => {
    expect(programOf(['sh', '-c', 'exit 3'], {}, false).exitCode).toBe(3);
    expect(programOf(['true'], {}, false)).toEqual({ seconds: 0, exitCode: 0, logs: [] });
    expect(programOf(['false'], {}, false).exitCode).toBe(1);
  });

  it('echo writes to the log at the time it runs, with $VAR expansion; single quotes stay literal', () => {
    const program = programOf(
      ['sh', '-c', 'echo start; sleep 3; echo "hello $NAME"; echo \'$NAME\'; exit 2'],
      { NAME: 'world' },
      false,
    );
    expect(program).toEqual({
      seconds: 3,
      exitCode: 2,
      logs: [
        { at: 0, line: 'start' },
        { at: 3, line: 'hello world' },
        { at: 3, line: '$NAME' },
      ],
    });
  });

  it('chains with && and || by status, and the last status is the exit code', () => {
    expect(
      programOf(['sh', '-c', 'false && echo no || echo yes'], {}, false).logs.map((l) => l.line),
    ).toEqual(['yes']);
    expect(programOf(['bash', '-c', 'true && false'], {}, false).exitCode).toBe(1);
    expect(programOf(['sh', '-c', 'set -e\nfalse\necho never'], {}, false)).toMatchObject({
      exitCode: 1,
      logs: [],
    });
  });

  it('anything else succeeds after the default duration; no command runs forever only for long-running pods', () => {
    expect(programOf(['python', 'migrate.py'], {}, false)).toEqual({
      seconds: DEFAULT_STEP_SECONDS,
      exitCode: 0,
      logs: [],
    });
    expect(programOf([], {}, true).seconds).toBe(Number.POSITIVE_INFINITY);
    expect(programOf([], {}, false)).toEqual({ seconds: DEFAULT_STEP_SECONDS, exitCode: 0, logs: [] });
  });
});
