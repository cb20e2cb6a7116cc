/** The fake Slack server's HTTP plumbing: request bodies as Slack reads them (form or JSON), JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A Web API call's arguments, from the form or JSON body; `blocks`/`attachments`/`view` JSON-decoded. */
export type Args = Record<string, unknown>;

/** `value` JSON-decoded when it is a string holding JSON, else as it is. */
export function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function parseBody(raw: string, req: IncomingMessage): Args {
  if ((req.headers['content-type'] ?? '').includes('application/json'))
    return raw ? (JSON.parse(raw) as Args) : {};
  const args: Args = Object.fromEntries(new URLSearchParams(raw));
  for (const key of ['blocks', 'attachments', 'view']) {
    const v = args[key];
    if (typeof v === 'string') {
      try {
        args[key] = JSON.parse(v);
      } catch {
        args[key] = v; // left as a string → invalid_blocks
      }
    }
  }
  return args;
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}
