import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

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
});
