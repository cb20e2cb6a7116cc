/**
 * Request body decoding (JSON, or YAML for apply patches) and JSON/Status responses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { badRequest, StatusError } from './status-error.js';

const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw badRequest('request entity too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The media type without parameters, lower-cased. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Decode a request body. JSON, and YAML for apply patches; a body in Kubernetes protobuf or CBOR (what kubectl and
 * client-go send for built-in kinds when they can) is answered 415 Unsupported Media Type, as kube-apiserver does
 * for a type it cannot decode — client-go then retries the request as JSON.
 * @throws StatusError 415 for protobuf/CBOR, 400 for a body that does not parse.
 */
export function decodeBody(text: string, contentType: string): unknown {
  if (contentType.includes('protobuf') || contentType.includes('cbor')) {
    throw new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/apply-patch+yaml (got ${contentType})`,
    );
  }
  if (text.trim() === '') return undefined;
  try {
    // JSON is YAML: an apply body that is JSON (what client-node and Argo CD send) is parsed as such, fast.
    if (contentType.endsWith('yaml') && !/^\s*[{[]/.test(text)) return parseYaml(text);
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Object 'Kind' is missing in '${text.slice(0, 200)}': ${(error as Error).message}`);
  }
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  warnings: string[] = [],
  contentType = 'application/json',
): void {
  const text = JSON.stringify(body);
  const headers: Record<string, string | string[]> = {
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(text)),
  };
  if (warnings.length > 0) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(code, headers);
  res.end(text);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

export function sendStatus(res: ServerResponse, error: StatusError): void {
  sendJson(res, error.code, error.toStatus());
}
