import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, textLine } from './logger.js';

describe('src/logger', () => {
  it('redacts tokens, signing secrets and authorization headers', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: 'info', destination: sink });

    logger.info(
      {
        slack: { botToken: 'xoxb-secret', signingSecret: 's3cr3t' },
        headers: { authorization: 'Bearer abc' },
      },
      'x',
    );

    const out = lines.join('');
    expect(out).not.toContain('xoxb-secret');
    expect(out).not.toContain('s3cr3t');
    expect(out).not.toContain('Bearer abc');
    expect(out).toContain('[Redacted]');
  });

  it('format text: one readable line per record, redacted as the JSON is', () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const logger = createLogger({ level: 'info', format: 'text', destination: sink });

    logger.warn({ key: 'ns/x', slack: { botToken: 'xoxb-secret' }, err: new Error('boom here') }, 'failed');

    expect(out).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}failed key=ns\/x slack=\{"botToken":"\[Redacted\]"\} err="boom here"\n$/,
    );
  });

  it('textLine keeps a line that is not JSON as it is', () => {
    expect(textLine('plain')).toBe('plain\n');
    expect(textLine(JSON.stringify({ level: 30, time: 0, msg: 'm', url: 'a b' }))).toBe(
      '00:00:00.000 INFO  m url="a b"\n',
    );
  });
});
